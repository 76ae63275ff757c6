import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignRecipients } from "~/db/schema";

export type ConsentText = {
  kind: string;
  body: string;
  status: string;
  providerId: string | null;
  providerStatus: string | null;
  sentAt: string | null;
  createdAt: string;
};

/**
 * The text a consent event sent (the welcome, or the "Reply Y" request), with its delivery status.
 * The only place the certificate reads the send engine's ledger, where a text of its own is found
 * by the dedupe key its consent event gave it (decision 068).
 */
export async function textsOfConsentEvent(
  db: Db,
  event: { id: number; inboundMessageSid: string | null },
): Promise<ConsentText[]> {
  const keys = [
    `welcome:${event.id}`,
    `doi:${event.id}`,
    ...(event.inboundMessageSid ? [`welcome:${event.inboundMessageSid}`] : []),
  ];
  const rows = await db.select().from(campaignRecipients).where(inArray(campaignRecipients.dedupeKey, keys));
  return rows.map((row) => ({
    kind: row.kind,
    body: row.body ?? "",
    status: row.state,
    providerId: row.providerId,
    providerStatus: row.providerStatus,
    sentAt: row.sentAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
