import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/auth.reset";
import { withActionRetryAfter } from "~/http/route-headers";
import { callAuthEndpoint, retryAfterHeaders } from "~/auth/call-auth.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { readFormOrAnswer } from "~/http/body.server";
import { NOTICES, noticeWith } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = (url.searchParams.get("token") ?? "").slice(0, 200);
  const invalid = url.searchParams.get("error") !== null || !token;
  // The notice comes with the data: the page's own code then needs no notice catalogue (first-load budget).
  return { token, notice: invalid ? NOTICES.resetFailed : null };
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const call = await callAuthEndpoint(request, "/reset-password", { token: form.token ?? "", newPassword: form.password ?? "" });
  if (call.ok) throw redirect("/auth?notice=passwordReset");
  if (call.status === 429) return data({ notice: noticeWith("resetFailed", "Too many attempts. Please wait a minute and try again.") }, { status: 429, headers: retryAfterHeaders(call) });
  const code = String(call.body?.code ?? "");
  const message =
    code === "PASSWORD_TOO_WEAK" && typeof call.body?.message === "string"
      ? call.body.message
      : code === "PASSWORD_TOO_SHORT"
        ? "Password must be at least 6 characters."
        : NOTICES.resetFailed.description;
  return data({ notice: noticeWith("resetFailed", message) }, { status: 400 });
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a New Password", description: "Set a new password.", path: "/auth/reset", noindex: true });

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">Choose a New Password</h1>
        {loaderData.notice ? <NoticeBanner notice={loaderData.notice} className="mt-6" /> : null}
        {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} className="mt-6" /> : null}
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <Field label="New password" name="password" type="password" autoComplete="new-password" minLength={6} maxLength={128} required />
          <Button type="submit" className="w-full" size="lg">
            Save new password
          </Button>
        </Form>
      </Card>
    </section>
  );
}
