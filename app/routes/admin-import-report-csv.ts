import type { Route } from "./+types/admin-import-report-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { reportCsv } from "~/services/import/import-report";
import { getRun, reportLinesOf } from "~/services/import/runs.server";

/** GET /admin/import/:id/report.csv[?phase=dry-run]: the whole report of a run, formula-safe. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = Number(params.id);
  const db = await getDb();
  const run = Number.isSafeInteger(id) && id > 0 ? await getRun(db, id) : null;
  if (!run) return new Response("No such import.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const phase = new URL(request.url).searchParams.get("phase") === "dry-run" ? "dry-run" : "import";
  const lines = await reportLinesOf(db, run.id, phase);
  return new Response(reportCsv(lines), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="import-${run.id}-${phase}-report.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
