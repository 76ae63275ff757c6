import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/auth.forgot";
import { withActionRetryAfter } from "~/http/route-headers";
import { callAuthEndpoint, retryAfterHeaders } from "~/auth/call-auth.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { readFormOrAnswer } from "~/http/body.server";
import { noticeWith } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const email = (form.email ?? "").trim().slice(0, 254);
  if (!email.includes("@")) return data({ notice: noticeWith("resetFailed", "Please enter the email address of your account.") }, { status: 400 });
  const call = await callAuthEndpoint(request, "/request-password-reset", { email, redirectTo: "/auth/reset" });
  if (call.status === 429) return data({ notice: noticeWith("resetFailed", "Too many requests. Please wait a minute and try again.") }, { status: 429, headers: retryAfterHeaders(call) });
  // The same answer whether or not the address has an account.
  throw redirect("/auth/forgot?notice=resetRequested");
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Reset Your Password", description: "Ask for a password reset link.", path: "/auth/forgot", noindex: true });

export default function Forgot({ actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">Reset Your Password</h1>
        <p className="mt-2 text-center text-muted-foreground">We will e-mail you a link to choose a new password.</p>
        {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} className="mt-6" /> : null}
        <Form method="post" className="mt-6 space-y-4">
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <Button type="submit" className="w-full" size="lg">
            Send reset link
          </Button>
        </Form>
      </Card>
    </section>
  );
}
