import type { Db } from "~/db/client.server";
import { AudienceSchema, type Audience } from "~/services/sending/audience.server";
import { saveDraft, scheduleCampaign } from "~/services/sending/campaigns.server";

export const TEST_SITE = "https://www.example.com";

/** A market alert saved and scheduled to send now, as an admin would: its id. */
export async function startCampaign(db: Db, body: string, audience: Partial<Audience>, now: Date) {
  const draft = await saveDraft(db, {
    name: "Alert",
    body,
    audience: AudienceSchema.parse(audience),
    actor: "admin@example.com",
    siteUrl: TEST_SITE,
    pricePerSegment: 0.0083,
  });
  if (!draft.ok) throw new Error(draft.message);
  const scheduled = await scheduleCampaign(db, {
    id: draft.campaign.id,
    schedule: { when: "now" },
    actor: "admin@example.com",
    dncPolicy: "refuse",
    now,
    typedCount: undefined,
  });
  if (!scheduled.ok) throw new Error(scheduled.message);
  return draft.campaign.id;
}
