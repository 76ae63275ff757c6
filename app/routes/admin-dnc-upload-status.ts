import type { Route } from "./+types/admin-dnc-upload-status";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getDncUpload } from "~/services/dnc/upload.server";

/** GET /admin/dnc/uploads/:id: the progress the upload page polls. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = Number(params.id);
  const upload = Number.isSafeInteger(id) && id > 0 ? await getDncUpload(await getDb(), id) : null;
  if (!upload) return Response.json({ error: "No such upload." }, { status: 404, headers: { "Cache-Control": "no-store" } });
  const { state, bytesRead, bytesTotal, lines, changed, badLines, error } = upload;
  return Response.json({ state, bytesRead, bytesTotal, lines, changed, badLines, error }, { headers: { "Cache-Control": "no-store" } });
}
