import type { Route } from "./+types/admin-redirects-csv";
import { requireEditor } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { keysetCsvStream } from "~/services/admin/csv-export.server";
import { redirectsAfter } from "~/services/redirects/redirects.server";

export const REDIRECT_CSV_COLUMNS = ["path", "target", "origin", "updated_by", "updated_at"] as const;
const BATCH = 2_000;

/**
 * GET /admin/redirects.csv: every old address and where it goes (decision 160), streamed in
 * keyset batches so 100,000 rows never sit in one string; formula-safe like the other exports.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const db = await getDb();
  const stamp = new Date().toISOString().slice(0, 10);
  const stream = keysetCsvStream({
    columns: REDIRECT_CSV_COLUMNS,
    page: (after: string | null) => redirectsAfter(db, after, BATCH),
    fields: (row) => [row.path, row.target, row.origin, row.updatedBy, row.updatedAt],
    cursorOf: (row) => row.path,
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="redirects-${stamp}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
