import type { Route } from "./+types/admin-subscribers-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { subscribersCsvStream } from "~/services/admin/csv-export.server";

/** GET /admin/subscribers.csv: every subscriber, streamed. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(subscribersCsvStream(await getDb()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${stamp}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
