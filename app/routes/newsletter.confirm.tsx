import { data, Form, Link } from "react-router";
import type { Route } from "./+types/newsletter.confirm";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { formSubmissionEvidence } from "~/http/request.server";
import { NOTICES, type Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import type { RouteHandle } from "~/root";
import { confirmationState, confirmSubscription, type ConfirmationState } from "~/services/newsletter/subscription.server";
import { cleanToken } from "~/services/newsletter/tokens.server";

export const handle: RouteHandle = { hydrate: false };

const STATE_NOTICES: Record<Exclude<ConfirmationState, "valid">, Notice> = {
  used: NOTICES.newsletterLinkUsed,
  expired: NOTICES.newsletterLinkExpired,
  unknown: { title: "Link Not Found", description: "This confirmation link is not valid. Please use the link from our latest e-mail.", variant: "error" },
};

/**
 * Opening the link only shows the button: mail scanners and link previews follow links, and must
 * not confirm anybody. The person confirms with the POST.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const token = cleanToken(new URL(request.url).searchParams.get("token"));
  if (!token) return data({ state: "unknown" as ConfirmationState, token: "", email: undefined }, { status: 404 });
  const view = await confirmationState(await getDb(), token);
  return data({ ...view, token }, { status: view.state === "unknown" ? 404 : 200 });
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const token = cleanToken(body.form.token);
  if (!token) return data({ notice: STATE_NOTICES.unknown, confirmed: false }, { status: 404 });
  const db = await getDb();
  // With the page with the button, kept as it was sent (decision 080).
  const { evidence, servedPageSha256 } = await formSubmissionEvidence(db, request, body.form);
  const result = await confirmSubscription(db, token, evidence, servedPageSha256);
  // An explicit 200: without it the page's loader, which finds no token in a bare /newsletter/confirm, sets the status.
  if (result.ok) return data({ notice: NOTICES.newsletterConfirmed, confirmed: true, preferencesUrl: `/newsletter/preferences?token=${result.emailToken}` }, { status: 200 });
  return data({ notice: STATE_NOTICES[result.state], confirmed: false }, { status: result.state === "unknown" ? 404 : 409 });
}

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Confirm Your Subscription", description: "Confirm your newsletter subscription.", path: "/newsletter/confirm", noindex: true });

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const answered = actionData && "notice" in actionData ? actionData.notice : null;
  const notice = answered ?? (loaderData.state === "valid" ? null : STATE_NOTICES[loaderData.state]);
  const showButton = !actionData && loaderData.state === "valid";
  return (
    <section className="mx-auto max-w-lg px-4 py-16">
      <Card className="p-8 text-center">
        <h1 className="text-3xl font-extrabold text-primary">Confirm Your Subscription</h1>
        {loaderData.email ? (
          <p className="mt-4 text-muted-foreground">
            Newsletter for <strong className="text-foreground">{loaderData.email}</strong>
          </p>
        ) : null}
        {notice ? <NoticeBanner notice={notice} className="mt-6 text-left" /> : null}
        {showButton ? (
          <Form method="post" className="mt-6">
            <input type="hidden" name="token" value={loaderData.token} />
            <Button type="submit" size="lg" className="w-full">
              Confirm my subscription
            </Button>
          </Form>
        ) : (
          <p className="mt-6 space-x-4">
            <Link to="/blog" className="font-semibold text-accent-strong underline">
              Read our latest articles
            </Link>
            {actionData && "preferencesUrl" in actionData ? (
              <a href={actionData.preferencesUrl} className="font-semibold text-accent-strong underline">
                Manage your subscription
              </a>
            ) : null}
          </p>
        )}
      </Card>
    </section>
  );
}
