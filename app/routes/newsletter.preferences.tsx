import { data, Form, Link } from "react-router";
import type { Route } from "./+types/newsletter.preferences";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { requestEvidence } from "~/http/request.server";
import { NOTICES, type Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import type { RouteHandle } from "~/root";
import { preferencesFor, resubscribeByToken, unsubscribeByToken } from "~/services/newsletter/subscription.server";
import { cleanToken } from "~/services/newsletter/tokens.server";

export const handle: RouteHandle = { hydrate: false };

const NOT_FOUND: Notice = {
  title: "Link Not Found",
  description: "This link is not valid. Please use the unsubscribe link from one of our e-mails.",
  variant: "error",
};

/** The page behind every e-mail's unsubscribe link: no sign-in, the link's token is the key. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = cleanToken(new URL(request.url).searchParams.get("token"));
  const view = token ? await preferencesFor(await getDb(), token) : null;
  if (!view) return data({ view: null, token: "" }, { status: 404 });
  return { view, token: token! };
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const token = cleanToken(body.form.token);
  if (!token) return data({ notice: NOT_FOUND }, { status: 404 });
  const db = await getDb();
  if (body.form.intent === "resubscribe") {
    const result = await resubscribeByToken(db, token, requestEvidence(request));
    return result.ok ? data({ notice: NOTICES.newsletterResubscribed }, { status: 200 }) : data({ notice: NOTICES.newsletterSuppressed }, { status: 409 });
  }
  const result = await unsubscribeByToken(db, token, "preferences", requestEvidence(request));
  // An explicit 200: without it the page's loader, which finds no token in a bare /newsletter/preferences, sets the status.
  return result.ok ? data({ notice: NOTICES.newsletterUnsubscribed }, { status: 200 }) : data({ notice: NOT_FOUND }, { status: 404 });
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Newsletter Preferences", description: "Manage your newsletter subscription.", path: "/newsletter/preferences", noindex: true });

const STATUS_TEXT: Record<string, string> = {
  active: "You are subscribed to our newsletter.",
  pending: "Your subscription is waiting for you to confirm it from our e-mail.",
  unsubscribed: "You are unsubscribed: we send you no newsletters.",
  expired: "You never confirmed your subscription, so we send you no newsletters.",
  bounced: "Mail to this address bounced, so we no longer send to it.",
  complained: "This address reported our mail as spam, so we no longer send to it.",
};

export default function NewsletterPreferences({ loaderData, actionData }: Route.ComponentProps) {
  const { view, token } = loaderData;
  const answered = actionData && "notice" in actionData ? actionData.notice : null;
  if (!view) {
    return (
      <section className="mx-auto max-w-lg px-4 py-16">
        <Card className="p-8">
          <h1 className="text-3xl font-extrabold text-primary">Newsletter Preferences</h1>
          <NoticeBanner notice={answered ?? NOT_FOUND} className="mt-6" />
        </Card>
      </section>
    );
  }
  const subscribed = view.status === "active" || view.status === "pending";
  const suppressed = view.status === "bounced" || view.status === "complained";
  return (
    <section className="mx-auto max-w-lg px-4 py-16">
      <Card className="p-8">
        <h1 className="text-3xl font-extrabold text-primary">Newsletter Preferences</h1>
        <p className="mt-4">
          Address: <strong>{view.email}</strong>
        </p>
        <p className="mt-2 text-muted-foreground" data-testid="newsletter-status">
          {STATUS_TEXT[view.status]}
        </p>
        {answered ? <NoticeBanner notice={answered} className="mt-6" /> : null}
        <Form method="post" className="mt-6">
          <input type="hidden" name="token" value={token} />
          {subscribed ? (
            <Button type="submit" name="intent" value="unsubscribe" size="lg" className="w-full">
              Unsubscribe
            </Button>
          ) : suppressed ? null : (
            <Button type="submit" name="intent" value="resubscribe" size="lg" className="w-full">
              Subscribe again
            </Button>
          )}
        </Form>
        <p className="mt-6 text-sm text-muted-foreground">
          Text-message alerts are separate: reply STOP to any of our texts to end them. Questions?{" "}
          <Link to="/contact" className="font-semibold text-accent-strong underline">
            Contact us
          </Link>
          .
        </p>
      </Card>
    </section>
  );
}
