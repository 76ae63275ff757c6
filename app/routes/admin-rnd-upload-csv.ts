import type { Route } from "./+types/admin-rnd-upload-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { rndPolicyFromEnv } from "~/services/consent/rnd-settings.server";
import { rndUploadRows } from "~/services/consent/rnd.server";

/** GET /admin/rnd/upload.csv: "number,date" for the RND's bulk upload (decision 071). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const rows = await rndUploadRows(await getDb(), rndPolicyFromEnv(getEnv()), new Date());
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(["phone_number,date", ...rows.map((row) => `${row.phone},${row.date}`)].join("\r\n") + "\r\n", {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="rnd-upload-${stamp}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
