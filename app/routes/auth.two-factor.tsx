import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/auth.two-factor";
import { withActionRetryAfter } from "~/http/route-headers";
import { callAuthEndpoint, cookieHeaders, retryAfterHeaders } from "~/auth/call-auth.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { readFormOrAnswer } from "~/http/body.server";
import { noticeWith } from "~/lib/notices";
import { landingAfterSignIn, roleIn } from "~/auth/landing.server";
import { pageMeta } from "~/lib/route-meta";

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const code = (form.code ?? "").replace(/\s/g, "").slice(0, 40);
  const path = /^\d{6}$/.test(code) ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
  const call = await callAuthEndpoint(request, path, { code });
  if (call.ok) {
    const returnTo = landingAfterSignIn(new URL(request.url).searchParams.get("redirectTo"), roleIn(call.body));
    const separator = returnTo.includes("?") ? "&" : "?";
    throw redirect(`${returnTo}${separator}notice=signedIn`, { headers: cookieHeaders(call) });
  }
  // Limited (3 codes in 10 s): not a wrong code, so not said to be one.
  if (call.status === 429) return data({ notice: noticeWith("signInFailed", "Too many attempts. Please wait a minute and try again.") }, { status: 429, headers: retryAfterHeaders(call) });
  return data({ notice: noticeWith("signInFailed", "That code is not valid. Try the current code from your app, or a backup code.") }, { status: 401 });
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Two-Factor Sign-In", description: "Enter your sign-in code.", path: "/auth/two-factor", noindex: true });

export default function TwoFactor({ actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">Two-Factor Sign-In</h1>
        <p className="mt-2 text-center text-muted-foreground">Enter the 6-digit code from your authenticator app, or one of your backup codes.</p>
        {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} className="mt-6" /> : null}
        <Form method="post" className="mt-6 space-y-4">
          <Field label="Code" name="code" inputMode="numeric" autoComplete="one-time-code" required />
          <Button type="submit" className="w-full" size="lg">
            Verify
          </Button>
        </Form>
      </Card>
    </section>
  );
}
