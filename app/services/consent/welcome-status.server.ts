import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsMessages } from "~/db/schema";

export type ConsentText = { kind: string; body: string; status: string; providerId: string | null; providerStatus: string | null; sentAt: string | null; createdAt: string };

/**
 * The text a consent event sent (the welcome, or the "Reply Y" request), with its delivery status.
 * The only place the certificate reads the SMS outbox: when the outbox moves into the send
 * engine's ledger, this one function is repointed (the dedupe keys stay the same).
 */
export async function textsOfConsentEvent(db: Db, event: { id: number; inboundMessageSid: string | null }): Promise<ConsentText[]> {
  const keys = [`welcome:${event.id}`, `doi:${event.id}`, ...(event.inboundMessageSid ? [`welcome:${event.inboundMessageSid}`] : [])];
  const rows = await db.select().from(smsMessages).where(inArray(smsMessages.dedupeKey, keys));
  return rows.map((row) => ({
    kind: row.kind,
    body: row.body,
    status: row.status,
    providerId: row.providerId,
    providerStatus: row.providerStatus,
    sentAt: row.sentAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
