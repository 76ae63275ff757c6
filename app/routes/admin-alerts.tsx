import type { Route } from "./+types/admin-alerts";
import { requireAdmin } from "~/auth/guards.server";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getDb } from "~/db/database.server";
import { pageMeta } from "~/lib/route-meta";
import { formatInZone } from "~/lib/zoned-time";
import { listCampaigns } from "~/services/sending/campaigns.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const rows = await listCampaigns(await getDb());
  return {
    campaigns: rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      plannedCount: row.plannedCount,
      scheduled: row.scheduledAt ? formatInZone(row.scheduledAt, row.scheduleZone ?? "America/New_York") : null,
      createdAt: row.createdAt.toISOString().slice(0, 10),
      createdBy: row.createdBy,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Market Alerts", description: "SMS market-alert campaigns.", path: "/admin/alerts", noindex: true });

export default function AdminAlerts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-extrabold text-primary">Market alerts</h1>
          <p className="mt-2 text-muted-foreground">Texts to the SMS subscribers, sent within each person’s allowed hours.</p>
        </div>
        <ButtonLink to="/admin/alerts/new" variant="navy">
          New alert
        </ButtonLink>
      </div>
      <Card className="p-6">
        {loaderData.campaigns.length === 0 ? (
          <p className="text-muted-foreground">No alerts yet.</p>
        ) : (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Alerts table">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2 pr-3">Alert</th>
                  <th className="pr-3">Status</th>
                  <th className="pr-3">Starts</th>
                  <th className="pr-3 text-right">Recipients</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.campaigns.map((campaign) => (
                  <tr key={campaign.id} className="border-t border-border">
                    <td className="py-2 pr-3">
                      <a href={`/admin/alerts/${campaign.id}`} className="font-semibold text-accent-strong underline">
                        {campaign.name}
                      </a>
                    </td>
                    <td className="pr-3" data-testid="alert-status">
                      {campaign.status}
                    </td>
                    <td className="pr-3">{campaign.scheduled ?? "-"}</td>
                    <td className="pr-3 text-right">{campaign.plannedCount?.toLocaleString("en-US") ?? "-"}</td>
                    <td>
                      {campaign.createdAt} {campaign.createdBy ? `by ${campaign.createdBy}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
