import { asc, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignRecipients } from "~/db/schema";

/**
 * A text a consent event caused, with its delivery: `status` is the ledger's state (queued,
 * sending, sent, failed, cancelled), `providerStatus` the provider's last report (delivered,
 * undelivered, ...), `error` the provider's error or why it was not sent, `reason` the stable code
 * of a text that may not go (decision 068).
 */
export type ConsentText = {
  kind: string;
  body: string;
  status: string;
  reason: string | null;
  providerId: string | null;
  providerStatus: string | null;
  error: string | null;
  sentAt: string | null;
  createdAt: string;
};

/**
 * The texts each consent event caused (an opt-in's welcome or "Reply Y" request, the replies to
 * STOP, HELP, START and Y), by the event id the text was queued with (decision 125), in one query.
 * The only place the certificate reads the send engine's ledger.
 */
export async function textsOfConsentEvents(db: Db, eventIds: readonly number[]): Promise<Map<number, ConsentText[]>> {
  const texts = new Map<number, ConsentText[]>();
  if (eventIds.length === 0) return texts;
  const r = campaignRecipients;
  const rows = await db
    .select()
    .from(r)
    .where(inArray(r.consentEventId, [...eventIds]))
    .orderBy(asc(r.createdAt), asc(r.id));
  for (const row of rows) {
    const list = texts.get(row.consentEventId!) ?? [];
    list.push({
      kind: row.kind,
      body: row.body ?? "",
      status: row.state,
      reason: row.reason,
      providerId: row.providerId,
      providerStatus: row.providerStatus,
      error: row.error,
      sentAt: row.sentAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    });
    texts.set(row.consentEventId!, list);
  }
  return texts;
}
