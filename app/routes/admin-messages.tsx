import type { Route } from "./+types/admin-messages";
import { requireAdmin } from "~/auth/guards.server";
import { pageParam } from "~/http/page-param";
import { getDb } from "~/db/database.server";
import { pageMeta } from "~/lib/route-meta";
import { listMessages } from "~/services/admin/reports.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = pageParam(request);
  const rows = await listMessages(await getDb(), page);
  return {
    page,
    rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null, nextAttemptAt: row.nextAttemptAt.toISOString(), lockedAt: null })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Messages", description: "The SMS outbox and log.", path: "/admin/messages", noindex: true });

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="messages-heading">
      <h1 id="messages-heading" className="text-3xl font-extrabold text-primary">
        Messages
      </h1>
      <p className="mt-2 text-muted-foreground">The SMS outbox and log, newest first.</p>
      <div className="mt-6 overflow-x-auto" tabIndex={0} role="region" aria-label="Messages table">
        <table className="stack-table w-full text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-2 pr-3">Queued</th>
              <th className="pr-3">To</th>
              <th className="pr-3">Kind</th>
              <th className="pr-3">Status</th>
              <th className="pr-3">Attempts</th>
              <th className="pr-3">Sent</th>
              <th className="pr-3">Provider</th>
              <th className="pr-3">Error</th>
              <th>Text</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.rows.map((row) => (
              <tr key={row.id} className="border-t border-border align-top" data-testid="message-row">
                <td data-label="Queued" className="py-2 pr-3 whitespace-nowrap">{row.createdAt.slice(0, 19).replace("T", " ")}</td>
                <td data-label="To" className="pr-3">{row.toPhone}</td>
                <td data-label="Kind" className="pr-3">{row.kind}</td>
                <td data-label="Status" className="pr-3 font-semibold">{row.status}</td>
                <td data-label="Attempts" className="pr-3">{row.attempts}</td>
                <td data-label="Sent" className="pr-3 whitespace-nowrap">{row.sentAt?.slice(0, 19).replace("T", " ")}</td>
                <td data-label="Provider" className="pr-3">{row.providerId} {row.providerStatus}</td>
                <td data-label="Error" className="pr-3 text-destructive">{row.error}</td>
                <td data-label="Text" className="max-w-md">{row.body}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
