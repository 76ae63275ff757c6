import { useEffect } from "react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/account";
import { withActionRetryAfter } from "~/http/route-headers";
import { accountAction, type AccountActionData, type AccountIntent } from "~/auth/account-actions.server";
import { requireUser } from "~/auth/guards.server";
import { listUserSessions } from "~/auth/instance.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { notify } from "~/lib/notify";
import { pageMeta } from "~/lib/route-meta";
import { useHydrated } from "~/lib/use-hydrated";
import { accountSubscriptions } from "~/services/account.server";
import { FormSeenImage } from "~/components/forms/form-seen-image";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [sessions, subscriptions] = await Promise.all([
    listUserSessions(user.id),
    accountSubscriptions(await getDb(), { email: user.email, emailVerified: user.emailVerified, phoneE164: user.phoneNumber }),
  ]);
  return {
    email: user.email,
    emailVerified: user.emailVerified,
    phoneNumber: user.phoneNumber,
    // Only what the page shows: never the session tokens.
    sessions: sessions.map((entry) => ({
      current: entry.id === user.sessionId,
      userAgent: entry.userAgent ?? null,
      ipAddress: entry.ipAddress ?? null,
      createdAt: new Date(entry.createdAt).toISOString(),
      lastUsedAt: new Date(entry.updatedAt).toISOString(),
    })),
    subscriptions,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  return accountAction(request, user, body.form);
}

// One person's page: never stored by a browser cache or a CDN; a limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args, { "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Your Account", description: "Your e-mail, password, devices, subscriptions and data.", path: "/account", noindex: true });

/** "Chrome on Linux" style, from a user agent; the raw string stays in the data download. */
function deviceName(userAgent: string | null) {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "another system";
  return `${browser} on ${system}`;
}

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  opted_out: "Stopped",
  unsubscribed: "Stopped",
  refused_dnc: "Not active (Do-Not-Call list)",
  expired: "Never confirmed",
  declined: "Declined",
  bounced: "Stopped (our mail to this address bounced)",
  complained: "Stopped (our mail was reported as spam)",
};

/** Pending means a different thing per channel: a link in the inbox, or a "Y" to reply by text. */
function statusText(channel: string, status: string) {
  if (status === "pending") return channel === "email" ? "Waiting for confirmation (check your inbox)" : "Waiting for your reply Y";
  return STATUS_TEXT[status] ?? status;
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card className="p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="text-xl font-extrabold text-primary">
          {title}
        </h2>
        <div className="mt-4 space-y-4">{children}</div>
      </section>
    </Card>
  );
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData && "notice" in actionData ? (actionData as AccountActionData) : undefined;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const banner = (intent: AccountIntent) => (!hydrated && result?.intent === intent ? <NoticeBanner notice={result.notice} /> : null);
  // After a code was sent, and after a wrong code, the page asks for it (for the number it went to).
  const codeFor = result?.askCode ? result.phone : undefined;
  // Otherwise the number form keeps the number last typed (a code that expired or ran out of tries).
  const lastPhone = result?.intent === "send-phone-code" || result?.intent === "confirm-phone" ? result.phone : undefined;

  useEffect(() => {
    if (result?.notice) notify(result.notice);
  }, [result]);

  const hidden = (intent: AccountIntent) => <input type="hidden" name="intent" value={intent} />;

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-3xl font-extrabold text-primary">Your Account</h1>
      {!hydrated && result?.intent === null ? <NoticeBanner notice={result.notice} /> : null}

      <Section id="email-heading" title="E-mail address">
        <p>
          <strong data-testid="account-email">{loaderData.email}</strong>{" "}
          <span className="text-sm text-muted-foreground">{loaderData.emailVerified ? "(verified)" : "(not verified yet)"}</span>
        </p>
        {banner("change-email")}
        <Form method="post" className="space-y-3">
          {hidden("change-email")}
          <Field label="New e-mail address" name="newEmail" type="email" autoComplete="email" maxLength={254} required />
          <Field label="Your password" name="currentPassword" type="password" autoComplete="current-password" maxLength={128} required />
          <p className="text-sm text-muted-foreground">We send a link to the new address; the change takes effect when you open it.</p>
          <Button type="submit" variant="navy" disabled={busy}>
            Change E-mail
          </Button>
        </Form>
      </Section>

      <Section id="password-heading" title="Password">
        {banner("change-password")}
        <Form method="post" className="space-y-3">
          {hidden("change-password")}
          <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" maxLength={128} required />
          <Field label="New password" name="newPassword" type="password" autoComplete="new-password" minLength={6} maxLength={128} required />
          <p className="text-sm text-muted-foreground">Changing the password signs you out on every other device.</p>
          <Button type="submit" variant="navy" disabled={busy}>
            Change Password
          </Button>
        </Form>
      </Section>

      <Section id="devices-heading" title="Signed-in devices">
        <ul className="divide-y divide-border rounded-md border border-border" data-testid="sessions">
          {loaderData.sessions.map((entry) => (
            <li key={entry.createdAt + (entry.userAgent ?? "")} className="px-4 py-3 text-sm">
              <p className="font-semibold">
                {deviceName(entry.userAgent)}
                {entry.current ? <span className="ml-2 rounded bg-muted px-2 py-0.5 text-xs">This device</span> : null}
              </p>
              <p className="text-muted-foreground">
                {entry.ipAddress ?? "Unknown address"} · signed in {when(entry.createdAt)} · last used {when(entry.lastUsedAt)}
              </p>
            </li>
          ))}
        </ul>
        {banner("sign-out-everywhere")}
        <Form method="post">
          {hidden("sign-out-everywhere")}
          <Button type="submit" variant="outline" disabled={busy}>
            Sign Out Everywhere
          </Button>
        </Form>
      </Section>

      <Section id="subscriptions-heading" title="Subscriptions">
        {banner("stop-sms")}
        {banner("stop-email")}
        {loaderData.subscriptions.length === 0 ? (
          <p data-testid="no-subscriptions">
            {loaderData.emailVerified ? "No newsletter or SMS subscription matches your e-mail address or phone number." : "Verify your e-mail address to see your newsletter subscription."}
          </p>
        ) : (
          <ul className="space-y-3" data-testid="subscriptions">
            {loaderData.subscriptions.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-border px-4 py-3">
                <p>
                  <strong>{entry.channel === "sms" ? "SMS market alerts" : "Newsletter"}</strong> to {entry.address}:{" "}
                  <span data-testid={`subscription-${entry.channel}-status`}>{statusText(entry.channel, entry.status)}</span>
                </p>
                {entry.status === "active" ? (
                  <Form method="post">
                    {hidden(entry.channel === "sms" ? "stop-sms" : "stop-email")}
                    <Button type="submit" variant="outline" size="sm" disabled={busy}>
                      {entry.channel === "sms" ? "Stop SMS Alerts" : "Unsubscribe"}
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {loaderData.phoneNumber ? (
          <p className="text-sm text-muted-foreground">Confirmed phone number: {loaderData.phoneNumber}</p>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-muted-foreground">
              To see and stop SMS alerts, confirm your mobile number: we text you a code (Msg &amp; data rates may apply).
            </p>
            {banner("send-phone-code")}
            {banner("confirm-phone")}
            {codeFor ? (
              <div className="space-y-3">
                <Form method="post" className="space-y-3">
                  {hidden("confirm-phone")}
                  <FormSeenImage />
                  <input type="hidden" name="phone" value={codeFor} />
                  <Field
                    label={`Code texted to ${codeFor}`}
                    name="code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    pattern="[0-9]{6}"
                    maxLength={6}
                    required
                    error={result?.intent === "confirm-phone" && result.notice.variant === "error" ? result.notice.description : undefined}
                  />
                  <Button type="submit" variant="navy" disabled={busy}>
                    Confirm Number
                  </Button>
                </Form>
                <Form method="post">
                  {hidden("send-phone-code")}
                  <input type="hidden" name="phone" value={codeFor} />
                  <Button type="submit" variant="outline" size="sm" disabled={busy}>
                    Text Me a New Code
                  </Button>
                </Form>
              </div>
            ) : (
              <Form method="post" className="space-y-3">
                {hidden("send-phone-code")}
                <Field label="Mobile number" name="phone" type="tel" autoComplete="tel" maxLength={30} defaultValue={lastPhone} required />
                <Button type="submit" variant="navy" disabled={busy}>
                  Text Me a Code
                </Button>
              </Form>
            )}
          </div>
        )}
      </Section>

      <Section id="data-heading" title="Your data">
        <p>Download everything we hold about your account: the account itself, its devices, its subscriptions and their consent records.</p>
        <a href="/account/data.json" download className="inline-flex font-semibold text-accent-strong underline" data-testid="download-data">
          Download My Data (JSON)
        </a>
      </Section>

      <Section id="delete-heading" title="Delete account">
        <p>
          Deleting your account removes your sign-in, your devices and your confirmed phone number, and stops your newsletter and
          SMS subscriptions. The records of the consent you gave and withdrew are kept, as the law on text messages and
          telemarketing requires (at least five years).
        </p>
        {banner("delete-account")}
        <Form method="post" className="space-y-3">
          {hidden("delete-account")}
          <Field label="Password (not needed within 10 minutes of signing in)" name="password" type="password" autoComplete="current-password" maxLength={128} />
          <Button type="submit" variant="primary" disabled={busy}>
            Delete My Account
          </Button>
        </Form>
      </Section>
    </div>
  );
}
