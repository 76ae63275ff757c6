import { Link, redirect } from "react-router";
import type { Route } from "./+types/admin-dashboard";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { EDITOR_HOME, requireEditor } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { pageMeta } from "~/lib/route-meta";
import { loadDashboard, type PeriodCounts } from "~/services/admin/dashboard.server";
import { DASHBOARD_FIGURES as F } from "~/services/admin/dashboard-figures";
import { cn } from "~/lib/cn";
import { describeChange, type AuditSubject } from "~/lib/audit-texts";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireEditor(request);
  // The staff home's figures are about subscribers and sending: an editor's home is the desk.
  if (user.role !== ADMIN_ROLE) throw redirect(EDITOR_HOME);
  const { audit, ...dashboard } = await loadDashboard(await getDb());
  return { ...dashboard, changes: audit.map((entry) => ({ id: entry.id, occurredAt: entry.occurredAt, ...describeChange(entry, entry.subject) })) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Dashboard", description: "The staff home: today’s figures.", path: "/admin", noindex: true });

const number = new Intl.NumberFormat("en-US");

function Figure({ label, value, href, warn, testId }: { label: string; value: string | number; href: string; warn?: boolean; testId: string }) {
  return (
    <Link
      to={href}
      data-testid={testId}
      className={cn("block rounded-lg border p-4 hover:bg-muted", warn ? "border-destructive" : "border-border")}
    >
      <span className="block text-sm font-semibold text-muted-foreground">{label}</span>
      <span className={cn("mt-1 block text-3xl font-extrabold", warn ? "text-destructive" : "text-primary")}>
        {typeof value === "number" ? number.format(value) : value}
      </span>
    </Link>
  );
}

function PeriodTable({ caption, rows, testId }: { caption: string; rows: { label: string; href: string; counts: PeriodCounts }[]; testId: string }) {
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <caption className="pb-2 text-left text-lg font-bold text-primary">{caption}</caption>
      <thead>
        <tr className="border-b border-border">
          <th scope="col" className="py-2 pr-4">
            Channel
          </th>
          <th scope="col" className="py-2 pr-4 text-right">
            Today
          </th>
          <th scope="col" className="py-2 pr-4 text-right">
            7 days
          </th>
          <th scope="col" className="py-2 text-right">
            30 days
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-b border-border">
            <th scope="row" className="py-2 pr-4 font-semibold">
              <Link to={row.href} className="text-primary underline">
                {row.label}
              </Link>
            </th>
            <td className="py-2 pr-4 text-right tabular-nums">{number.format(row.counts.today)}</td>
            <td className="py-2 pr-4 text-right tabular-nums">{number.format(row.counts.days7)}</td>
            <td className="py-2 text-right tabular-nums">{number.format(row.counts.days30)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "the article “Title”" with the title linked; a thing without a name links its noun. */
function ChangeSubject({ subject }: { subject: AuditSubject }) {
  const link = (label: string) =>
    subject.href ? (
      <Link to={subject.href} className="font-semibold text-primary underline">
        {label}
      </Link>
    ) : (
      <span className="font-semibold">{label}</span>
    );
  if (!subject.name) return link(subject.noun);
  return subject.noun ? (
    <>
      {subject.noun} “{link(subject.name)}”
    </>
  ) : (
    link(subject.name)
  );
}

export default function AdminDashboard({ loaderData: d }: Route.ComponentProps) {
  const dncLabel = d.dnc.ageDays === null ? "No registry data imported" : `${d.dnc.ageDays} days old (${d.dnc.dataDate})`;
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-8">
      <h1 id="dashboard-heading" className="text-3xl font-extrabold text-primary">
        Dashboard
      </h1>
      <details className="rounded-lg border border-border p-4 text-sm" data-testid="figure-definitions">
        <summary className="cursor-pointer font-semibold text-primary">What each figure counts</summary>
        <dl className="mt-3 space-y-2">
          {Object.values(F).map((figure) => (
            <div key={figure.label}>
              <dt className="font-semibold">{figure.label}</dt>
              <dd className="text-muted-foreground">{figure.definition}</dd>
            </div>
          ))}
        </dl>
      </details>

      <div className="grid gap-8 lg:grid-cols-2">
        <PeriodTable
          caption={F.newSubscribers.label}
          testId="new-subscribers"
          rows={[
            { label: "SMS alerts", href: "/admin/subscribers", counts: d.newSubscribers.sms },
            { label: "Newsletter", href: "/admin/subscribers", counts: d.newSubscribers.email },
          ]}
        />
        <PeriodTable
          caption={F.optOuts.label}
          testId="opt-outs"
          rows={[
            { label: "SMS alerts", href: "/admin/subscribers", counts: d.optOuts.sms },
            { label: "Newsletter", href: "/admin/subscribers", counts: d.optOuts.email },
          ]}
        />
      </div>

      <div>
        <h2 className="text-lg font-bold text-primary">Sending</h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Figure testId="texts-sent" label={F.textsSent.label} value={d.last24h.texts.sent} href="/admin/messages" />
          <Figure testId="texts-failed" label={F.textsFailed.label} value={d.last24h.texts.failed} href="/admin/messages" warn={d.last24h.texts.failed > 0} />
          <Figure testId="texts-waiting" label={F.textsWaiting.label} value={d.outbox.texts} href="/admin/messages" />
          <Figure testId="emails-sent" label={F.emailsSent.label} value={d.last24h.emails.sent} href="/admin/messages" />
          <Figure testId="emails-failed" label={F.emailsFailed.label} value={d.last24h.emails.failed} href="/admin/messages" warn={d.last24h.emails.failed > 0} />
          <Figure testId="emails-waiting" label={F.emailsWaiting.label} value={d.outbox.emails} href="/admin/messages" />
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Figure testId="dnc-age" label={F.dnc.label} value={dncLabel} href="/admin/dnc" warn={d.dnc.stale} />
        <Figure testId="unread-inbox" label={F.unreadInbox.label} value={d.unreadInbox} href="/admin/inbox" />
      </div>
      {d.dnc.stale ? (
        <p role="alert" className="rounded-md border border-destructive p-3 text-sm font-semibold text-destructive">
          The Do-Not-Call data is more than {d.dnc.maxAgeDays} days old or missing: import a fresh download before texting.
        </p>
      ) : null}

      <div>
        <h2 className="text-lg font-bold text-primary">Latest campaign and newsletter</h2>
        {d.campaigns.length === 0 ? (
          <p className="mt-2 text-muted-foreground" data-testid="campaigns-empty">
            Results of SMS campaigns and newsletters appear here once one has been sent.
          </p>
        ) : (
          <ul className="mt-3 space-y-2" data-testid="campaigns">
            {d.campaigns.map((campaign) => (
              <li key={`${campaign.kind}-${campaign.name}`}>
                <Link to={campaign.href} className="font-semibold text-primary underline">
                  {campaign.name}
                </Link>{" "}
                <span className="text-sm text-muted-foreground">
                  {campaign.sentAt.slice(0, 10)} · {number.format(campaign.sent)} of {number.format(campaign.recipients)} sent ·{" "}
                  {number.format(campaign.failed)} failed
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div>
        <h2 className="text-lg font-bold text-primary">Recent changes</h2>
        {d.changes.length === 0 ? (
          <p className="mt-2 text-muted-foreground">No changes recorded yet.</p>
        ) : (
          <ol className="mt-3 divide-y divide-border rounded-lg border border-border" data-testid="audit">
            {d.changes.map((change) => (
              <li key={change.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-2 text-sm">
                <span className="min-w-0 break-words">
                  <strong>{change.actor}</strong> {change.lead}
                  <ChangeSubject subject={change.subject} />
                  {change.tail}
                </span>
                <time dateTime={change.occurredAt} className="text-muted-foreground">
                  {change.occurredAt.slice(0, 16).replace("T", " ")} UTC
                </time>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
