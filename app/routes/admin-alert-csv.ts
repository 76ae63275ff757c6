import type { Route } from "./+types/admin-alert-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getCampaign } from "~/services/sending/campaigns.server";
import { campaignCsvStream } from "~/services/sending/results.server";

/** GET /admin/alerts/:id/recipients.csv: every recipient's outcome, streamed. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const campaign = await getCampaign(db, params.id);
  if (!campaign) return new Response("No such alert.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  return new Response(campaignCsvStream(db, campaign.id), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="alert-${campaign.id.slice(0, 8)}-recipients.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
