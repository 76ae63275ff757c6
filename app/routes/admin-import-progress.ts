import type { Route } from "./+types/admin-import-progress";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getRun } from "~/services/import/runs.server";

/** GET /admin/import/:id/progress.json: what the import page polls while the job works. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = Number(params.id);
  const run = Number.isSafeInteger(id) && id > 0 ? await getRun(await getDb(), id) : null;
  if (!run) return Response.json({ error: "No such import." }, { status: 404, headers: { "Cache-Control": "no-store" } });
  const { status, itemsDone, itemsTotal } = run;
  return Response.json({ status, itemsDone, itemsTotal }, { headers: { "Cache-Control": "no-store" } });
}
