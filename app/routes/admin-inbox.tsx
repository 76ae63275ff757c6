import type { Route } from "./+types/admin-inbox";
import { requireAdmin } from "~/auth/guards.server";
import { pageParam } from "~/http/page-param";
import { getDb } from "~/db/database.server";
import { pageMeta } from "~/lib/route-meta";
import { listContactMessages, markContactMessagesRead } from "~/services/admin/reports.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = pageParam(request);
  const db = await getDb();
  const rows = await listContactMessages(db, page);
  await markContactMessagesRead(db, rows.map((row) => row.id));
  return { rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), readAt: row.readAt?.toISOString() ?? null })) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Inbox", description: "Contact-form messages.", path: "/admin/inbox", noindex: true });

export default function AdminInbox({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="inbox-heading">
      <h1 id="inbox-heading" className="text-3xl font-extrabold text-primary">
        Inbox
      </h1>
      <p className="mt-2 text-muted-foreground">Messages sent through the contact form, newest first. Reply within 24 hours on business days.</p>
      {loaderData.rows.length === 0 ? <p className="mt-6">No messages yet.</p> : null}
      <ul className="mt-6 space-y-4">
        {loaderData.rows.map((row) => (
          <li key={row.id} className="rounded-lg border border-border p-4 [overflow-wrap:anywhere]" data-testid="inbox-message">
            <p className="font-bold text-primary">
              {row.readAt ? null : <span className="mr-2 rounded bg-accent px-2 py-0.5 text-xs font-bold text-accent-foreground">New</span>}
              {row.subject}
            </p>
            <p className="text-sm text-muted-foreground">
              {row.name} · <a className="underline" href={`mailto:${row.email}`}>{row.email}</a>
              {row.phone ? ` · ${row.phone}` : ""} · {row.createdAt.slice(0, 16).replace("T", " ")}
            </p>
            <p className="mt-2 whitespace-pre-wrap">{row.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
