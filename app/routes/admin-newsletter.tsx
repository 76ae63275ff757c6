import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin-newsletter";
import { requireAdmin } from "~/auth/guards.server";
import { NewsletterIssueForm } from "~/components/admin/newsletter-issue-form";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormParamsOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { digestChoices, digestSources, parseIssueForm } from "~/http/newsletter-admin.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { listIssues, saveIssueDraft } from "~/services/newsletter/issues.server";
import { newsletterAudienceCounts } from "~/services/newsletter/audience.server";

export const ISSUE_FORM_LIMIT = 64 * 1024;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const [issues, audience] = await Promise.all([listIssues(db), newsletterAudienceCounts(db)]);
  return {
    issues: issues.map((issue) => ({ id: issue.id, subject: issue.subject, status: issue.status, createdAt: issue.createdAt.toISOString(), scheduledAt: issue.scheduledAt?.toISOString() ?? null })),
    audience,
    choices: digestChoices(),
    postalAddressSet: Boolean(getEnv().SITE_POSTAL_ADDRESS),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const body = await readFormParamsOrAnswer(request, ISSUE_FORM_LIMIT);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const parsed = parseIssueForm(form);
  if (!parsed.ok) return data({ errors: parsed.errors, notice: { title: "Not Saved", description: Object.values(parsed.errors)[0] ?? "Check the form.", variant: "error" } as Notice }, { status: 400 });
  const result = await saveIssueDraft(await getDb(), { draft: parsed.draft, actor: user.email, known: digestSources() });
  if (!result.ok) {
    const description = result.code === "unknown_article" ? `There is no article "${result.slug}".` : "This issue can no longer be edited.";
    return data({ errors: {}, notice: { title: "Not Saved", description, variant: "error" } as Notice }, { status: 400 });
  }
  throw redirect(`/admin/newsletter/${result.id}`);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Newsletter", description: "Write and send the newsletter.", path: "/admin/newsletter", noindex: true });

export const ISSUE_STATUS_LABEL: Record<string, string> = { draft: "Draft", scheduled: "Scheduled", sending: "Sending", paused: "Paused", completed: "Sent", cancelled: "Cancelled" };

export default function AdminNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const { issues, audience, choices, postalAddressSet } = loaderData;
  const errors = actionData && "errors" in actionData ? actionData.errors : undefined;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-primary">Newsletter</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/newsletter/import" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Import subscribers
          </Link>
          <a href="/admin/newsletter/subscribers.csv" className={buttonVariants({ variant: "navy", size: "sm" })} download>
            Export subscribers CSV
          </a>
        </div>
      </div>
      {!postalAddressSet ? (
        <p role="alert" className="rounded-md border-l-4 border-destructive bg-destructive-soft p-4 text-sm text-destructive">
          Set SITE_POSTAL_ADDRESS (the sender’s postal address, required by CAN-SPAM in every commercial e-mail) before a newsletter can be sent.
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <Card className="p-5">
          <p className="text-sm text-muted-foreground">Confirmed subscribers</p>
          <p className="text-3xl font-extrabold" data-testid="newsletter-active">{audience.active.toLocaleString("en-US")}</p>
        </Card>
        <Card className="p-5">
          <p className="text-sm text-muted-foreground">Waiting for confirmation</p>
          <p className="text-3xl font-extrabold">{audience.pending.toLocaleString("en-US")}</p>
        </Card>
        <Card className="p-5">
          <p className="text-sm text-muted-foreground">Unsubscribed, bounced or complained</p>
          <p className="text-3xl font-extrabold">{audience.ended.toLocaleString("en-US")}</p>
        </Card>
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">New issue</h2>
          {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} className="mt-4" /> : null}
          <div className="mt-4">
            <NewsletterIssueForm values={{ subject: "", previewText: "", introMarkdown: "", articleSlugs: choices.slice(0, 3).map((choice) => choice.slug) }} choices={choices} errors={errors} />
          </div>
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Issues</h2>
          {issues.length === 0 ? (
            <p className="mt-4 text-sm text-muted-foreground">No issues yet.</p>
          ) : (
            <ul className="mt-4 divide-y divide-border">
              {issues.map((issue) => (
                <li key={issue.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <Link to={`/admin/newsletter/${issue.id}`} className="font-semibold text-primary underline">
                    {issue.subject}
                  </Link>
                  <span className="text-sm text-muted-foreground">
                    {ISSUE_STATUS_LABEL[issue.status]} · {new Date(issue.scheduledAt ?? issue.createdAt).toLocaleString("en-US", { timeZone: "UTC" })} UTC
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
