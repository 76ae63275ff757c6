import { data, Form } from "react-router";
import type { Route } from "./+types/admin-security";
import { withActionRetryAfter } from "~/http/route-headers";
import { callAuthEndpoint, cookieHeaders, retryAfterHeaders, type AuthCall } from "~/auth/call-auth.server";
import { requireEditor } from "~/auth/guards.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { totpQrSvg } from "~/auth/totp-qr.server";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireEditor(request, { allowWithout2fa: true });
  return { enabled: user.twoFactorEnabled, required: getEnv().ADMIN_REQUIRE_2FA };
}

type ActionData = { notice: Notice; totpURI?: string; qrSvg?: string; backupCodes?: string[] };

/** A refused call: limited (429, with when to try again), or the password or code not right. */
function refused(call: AuthCall, notice: Notice) {
  if (call.status === 429) {
    return data<ActionData>({ notice: { ...notice, description: "Too many attempts. Please wait a minute and try again." } }, { status: 429, headers: retryAfterHeaders(call) });
  }
  return data<ActionData>({ notice }, { status: 400 });
}

export async function action({ request }: Route.ActionArgs) {
  await requireEditor(request, { allowWithout2fa: true });
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  if (form.intent === "enable") {
    const call = await callAuthEndpoint(request, "/two-factor/enable", { password: form.password ?? "" });
    if (!call.ok) return refused(call, { title: "Not Turned On", description: "The password is not correct.", variant: "error" });
    const totpURI = String(call.body?.totpURI ?? "");
    return data<ActionData>(
      {
        notice: { title: "Scan the Code", description: "Scan the code with your authenticator app (or type the key), then enter a code to finish.", variant: "info" },
        totpURI,
        qrSvg: totpURI ? await totpQrSvg(totpURI) : undefined,
        backupCodes: (call.body?.backupCodes as string[] | undefined) ?? [],
      },
      // better-auth renews the session when two-factor settings change: keep the new cookie.
      { headers: cookieHeaders(call) },
    );
  }
  if (form.intent === "verify") {
    const call = await callAuthEndpoint(request, "/two-factor/verify-totp", { code: (form.code ?? "").replace(/\s/g, "") });
    if (!call.ok) return refused(call, { title: "Not Turned On", description: "That code is not valid.", variant: "error" });
    return data<ActionData>(
      { notice: { title: "Two-Factor Sign-In On", description: "You will be asked for a code at every sign-in.", variant: "success" } },
      { headers: cookieHeaders(call) },
    );
  }
  if (form.intent === "disable") {
    const call = await callAuthEndpoint(request, "/two-factor/disable", { password: form.password ?? "" });
    if (!call.ok) return refused(call, { title: "Not Turned Off", description: "The password is not correct.", variant: "error" });
    return data<ActionData>(
      { notice: { title: "Two-Factor Sign-In Off", description: "Sign-in now needs only your password.", variant: "success" } },
      { headers: cookieHeaders(call) },
    );
  }
  return data<ActionData>({ notice: { title: "Unknown Action", description: "Nothing was changed.", variant: "error" } }, { status: 400 });
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Security", description: "Two-factor sign-in.", path: "/admin/security", noindex: true });

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData && "notice" in actionData ? actionData : undefined;
  const secret = result?.totpURI ? new URL(result.totpURI).searchParams.get("secret") : null;
  return (
    <section aria-labelledby="security-heading" className="max-w-2xl space-y-6">
      <h1 id="security-heading" className="text-3xl font-extrabold text-primary">
        Two-factor sign-in
      </h1>
      {loaderData.required && !loaderData.enabled ? (
        <p role="alert" className="rounded-md border-l-4 border-destructive bg-destructive-soft p-4 text-sm text-destructive">
          Two-factor sign-in is required for staff (admins and editors). Turn it on to use the admin area.
        </p>
      ) : null}
      {result ? <NoticeBanner notice={result.notice} /> : null}
      <p>
        Status: <strong>{loaderData.enabled ? "on" : "off"}</strong>
      </p>
      {result?.totpURI ? (
        <Card className="space-y-3 p-6">
          {result.qrSvg ? (
            <figure className="space-y-2">
              <div
                role="img"
                aria-label="QR code for your authenticator app"
                data-testid="totp-qr"
                className="h-56 w-56 [&>svg]:h-full [&>svg]:w-full"
                // Made on the server by the qrcode package from better-auth's otpauth:// address.
                dangerouslySetInnerHTML={{ __html: result.qrSvg }}
              />
              <figcaption className="text-sm text-muted-foreground">
                Scan this with your authenticator app (Google Authenticator, 1Password, Authy...).
              </figcaption>
            </figure>
          ) : null}
          <p>Or type this key into the app:</p>
          <p className="break-all rounded bg-muted p-3 font-mono text-sm" data-testid="totp-secret">
            {secret}
          </p>
          <p className="text-sm text-muted-foreground break-all">{result.totpURI}</p>
          <p className="font-semibold">Backup codes (each works once; keep them somewhere safe):</p>
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm">
            {result.backupCodes?.map((code) => <li key={code}>{code}</li>)}
          </ul>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="verify" />
            <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required />
            <Button type="submit">Finish</Button>
          </Form>
        </Card>
      ) : (
        <Card className="p-6">
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value={loaderData.enabled ? "disable" : "enable"} />
            <Field label="Your password" name="password" type="password" autoComplete="current-password" required />
            <Button type="submit" variant={loaderData.enabled ? "outline" : "primary"}>
              {loaderData.enabled ? "Turn off two-factor sign-in" : "Turn on two-factor sign-in"}
            </Button>
          </Form>
        </Card>
      )}
    </section>
  );
}
