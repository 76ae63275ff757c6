import { data, Link } from "react-router";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/admin-newsletter-issue";
import { requireAdmin } from "~/auth/guards.server";
import { NewsletterIssueForm } from "~/components/admin/newsletter-issue-form";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormParamsOrAnswer } from "~/http/body.server";
import { digestChoices, digestSources, issueSettings, parseIssueForm, unsubscribeMailbox } from "~/http/newsletter-admin.server";
import { NOTICES, type Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { SCHEDULE_ZONES } from "~/lib/zoned-time";
import { newsletterAudienceCounts } from "~/services/newsletter/audience.server";
import { getIssue, issueWithStatus, recipientLinks, renderIssueFor, saveIssueDraft, sendIssueTest, slugsOf } from "~/services/newsletter/issues.server";
import { newsletterResults } from "~/services/newsletter/results.server";
import { NewsletterResultsPanel } from "~/components/admin/newsletter-results";
import { ISSUE_STATUS_LABEL } from "./admin-newsletter";
import { personalize } from "~/services/newsletter/issue-email.server";
import { cancelIssue, scheduleIssue } from "~/services/newsletter/schedule.server";
import { ISSUE_FORM_LIMIT } from "./admin-newsletter";

function issueId(params: { id?: string }) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id < 1) throw data({ message: "No such issue." }, { status: 404 });
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const db = await getDb();
  const issue = await issueWithStatus(db, issueId(params));
  if (!issue) throw data({ message: "No such issue." }, { status: 404 });
  const settings = issueSettings();
  const now = Date.now();
  const due = issue.status === "scheduled" && issue.scheduledAt !== null && issue.scheduledAt.getTime() <= now;
  const rendered = await renderIssueFor(issue, digestSources(), settings);
  const preview = personalize(rendered, recipientLinks(settings.siteUrl, "preview-copy-no-subscriber-00000000000000", unsubscribeMailbox()).links);
  return {
    issue: {
      id: issue.id,
      subject: issue.subject,
      previewText: issue.previewText,
      introMarkdown: issue.introMarkdown,
      articleSlugs: slugsOf(issue),
      status: issue.status,
      scheduledAt: issue.scheduledAt?.toISOString() ?? null,
    },
    previewHtml: preview.html,
    previewText: preview.text,
    choices: digestChoices(),
    audience: await newsletterAudienceCounts(db),
    results: issue.campaignId ? await newsletterResults(db, issue.campaignId) : null,
    staffEmail: user.email,
    postalAddressSet: Boolean(settings.postalAddress),
    // The sending processes check the address where they render the issue; this one answers for them.
    held: !settings.postalAddress && due,
    // Its time has come: the send engine starts it at once (Send now lands here).
    starting: due && Boolean(settings.postalAddress),
  };
}

type ActionAnswer = { notice: Notice; errors?: Record<string, string> };
const fail = (status: number, title: string, description: string, errors?: Record<string, string>) =>
  data<ActionAnswer>({ notice: { title, description, variant: "error" }, errors }, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const id = issueId(params);
  const body = await readFormParamsOrAnswer(request, ISSUE_FORM_LIMIT);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const db = await getDb();
  const issue = await getIssue(db, id);
  if (!issue) return fail(404, "Not Found", "No such issue.");
  const intent = form.get("intent");
  const settings = issueSettings();

  if (intent === "save") {
    const parsed = parseIssueForm(form);
    if (!parsed.ok) return fail(400, "Not Saved", Object.values(parsed.errors)[0] ?? "Check the form.", parsed.errors as Record<string, string>);
    const result = await saveIssueDraft(db, { id, draft: parsed.draft, actor: user.email, known: digestSources() });
    if (!result.ok) return fail(409, "Not Saved", result.code === "unknown_article" ? `There is no article "${result.slug}".` : "This issue is being sent or was sent: it can no longer be edited.");
    return data<ActionAnswer>({ notice: { title: "Saved", description: "The draft is saved.", variant: "success" } });
  }
  if (intent === "test") {
    const to = (form.get("to") ?? "").trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to) || to.length > 254) return fail(400, "Test Not Sent", "Enter a valid e-mail address.", { to: "Enter a valid e-mail address." });
    await sendIssueTest(db, { issue, to, actor: user.email, known: digestSources(), settings, mailto: unsubscribeMailbox() });
    return data<ActionAnswer>({ notice: { title: "Test Sent", description: `A test copy is on its way to ${to}.`, variant: "success" } });
  }
  if (intent === "schedule" || intent === "send_now") {
    if (!settings.postalAddress) return fail(400, "Not Sent", "Set SITE_POSTAL_ADDRESS before sending a newsletter (CAN-SPAM).");
    const result = await scheduleIssue(db, { id, actor: user.email, when: intent === "send_now" ? "now" : { local: form.get("sendAt") ?? "", zone: form.get("zone") ?? "" } });
    if (!result.ok) return fail(400, "Not Scheduled", result.message, result.field ? { [result.field]: result.message } : undefined);
    return data<ActionAnswer>({
      notice: { title: intent === "send_now" ? "Sending" : "Scheduled", description: intent === "send_now" ? "The issue is being sent." : `The issue goes out at ${result.at.toISOString()}.`, variant: "success" },
    });
  }
  if (intent === "cancel") {
    const result = await cancelIssue(db, { id, actor: user.email });
    if (!result.ok) return fail(409, "Not Cancelled", result.message);
    return data<ActionAnswer>({ notice: { title: "Cancelled", description: "The issue will not be sent (copies already sent stay sent).", variant: "success" } });
  }
  return fail(400, "Unknown Action", "The form asked for something this page does not do.");
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, { title: loaderData ? `Newsletter: ${loaderData.issue.subject}` : "Newsletter", description: "A newsletter issue.", path: "/admin/newsletter", noindex: true });


export default function AdminNewsletterIssue({ loaderData, actionData }: Route.ComponentProps) {
  const { issue, previewHtml, previewText, choices, audience, staffEmail, postalAddressSet, results, held, starting } = loaderData;
  const navigation = useNavigation();
  // While Send now is on its way the page already says so, instead of the draft it no longer is.
  const sendingNow = navigation.state !== "idle" && navigation.formData?.get("intent") === "send_now";
  const status = held ? "Held" : sendingNow || starting ? ISSUE_STATUS_LABEL.sending : ISSUE_STATUS_LABEL[issue.status];
  const editable = !sendingNow && !starting && (issue.status === "draft" || issue.status === "scheduled");
  const errors = actionData && "errors" in actionData ? actionData.errors : undefined;
  return (
    <div className="space-y-8">
      <p>
        <Link to="/admin/newsletter" className="text-sm font-semibold text-primary underline">
          ← All issues
        </Link>
      </p>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-primary">{issue.subject}</h1>
        <p className="text-sm font-semibold" data-testid="issue-status">
          Status: {status}
          {issue.scheduledAt && !sendingNow && !starting ? ` · ${new Date(issue.scheduledAt).toLocaleString("en-US", { timeZone: "UTC" })} UTC` : ""}
        </p>
      </div>
      {held ? <NoticeBanner notice={NOTICES.newsletterHeldNoPostalAddress} /> : null}
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      {results ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Results</h2>
          <div className="mt-4">
            <NewsletterResultsPanel results={results} live={!held && (issue.status === "sending" || issue.status === "scheduled")} />
          </div>
        </Card>
      ) : null}
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-8">
          <Card className="p-6">
            <h2 className="text-lg font-bold text-primary">Write</h2>
            <div className="mt-4">
              <NewsletterIssueForm values={issue} choices={choices} errors={errors} disabled={!editable} />
            </div>
          </Card>
          <Card className="p-6">
            <h2 className="text-lg font-bold text-primary">Send a test</h2>
            <Form method="post" className="mt-4 space-y-3">
              <input type="hidden" name="intent" value="test" />
              <Field label="Send a test copy to" name="to" type="email" defaultValue={staffEmail} required error={errors?.to} />
              <Button type="submit" variant="outline">
                Send test
              </Button>
            </Form>
          </Card>
          <Card className="p-6">
            <h2 className="text-lg font-bold text-primary">Send</h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Goes to every confirmed subscriber at the moment it is sent: {audience.active.toLocaleString("en-US")} today.
            </p>
            {!postalAddressSet ? <p className="mt-2 text-sm text-destructive">Set SITE_POSTAL_ADDRESS before sending (CAN-SPAM).</p> : null}
            {editable ? (
              <div className="mt-4 space-y-4">
                <Form method="post">
                  <input type="hidden" name="intent" value="send_now" />
                  <Button type="submit" disabled={!postalAddressSet}>
                    Send now
                  </Button>
                </Form>
                <Form method="post" className="space-y-3">
                  <input type="hidden" name="intent" value="schedule" />
                  <Field label="Send at (local time)" name="sendAt" type="datetime-local" required error={errors?.sendAt} />
                  <div>
                    <label htmlFor="zone" className="mb-1.5 block text-sm font-semibold">
                      Time zone
                    </label>
                    <select id="zone" name="zone" defaultValue="America/New_York" className="block w-full rounded-md border border-input bg-background px-3 py-2.5">
                      {SCHEDULE_ZONES.map(({ zone, label }) => (
                        <option key={zone} value={zone}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </div>
                  <Button type="submit" variant="outline" disabled={!postalAddressSet}>
                    Schedule
                  </Button>
                </Form>
              </div>
            ) : null}
            {issue.status === "scheduled" || issue.status === "sending" || issue.status === "paused" ? (
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="cancel" />
                <Button type="submit" variant="outline">
                  Cancel sending
                </Button>
              </Form>
            ) : null}
          </Card>
        </div>
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Preview</h2>
          <iframe title="Preview of the e-mail" srcDoc={previewHtml} sandbox="" className="mt-4 h-[900px] w-full rounded-md border border-border bg-white" />
          <details className="mt-4">
            <summary className="cursor-pointer text-sm font-semibold">Plain-text part</summary>
            <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap text-xs" data-testid="preview-text">
              {previewText}
            </pre>
          </details>
        </Card>
      </div>
    </div>
  );
}
