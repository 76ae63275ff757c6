import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignRecipients, type SEND_KINDS } from "~/db/schema";

/** A text sent to one person for a reason of their own (not a campaign's). */
export type SmsKind = Exclude<(typeof SEND_KINDS)[number], "campaign">;

type Executor = Pick<Db, "insert">;

/**
 * Queues a text of its own in the send engine's ledger (decision 068): the engine sends it at the
 * number's shared rate, before campaigns, and checks consent right before it goes. The dedupe key
 * makes this idempotent: the same key never queues twice, so a retried request or a duplicate
 * webhook cannot send a second message. Returns the row's id, or null when the key was taken.
 * Callers nudge the sender (`nudgeTexts`) once their transaction has committed.
 */
export async function enqueueSms(
  db: Executor,
  message: {
    toPhone: string;
    body: string;
    kind: SmsKind;
    dedupeKey: string;
    subscriberId?: string | null;
    /** The consent event the text answers or follows: its certificate lists it (decision 125). */
    consentEventId?: number | null;
  },
) {
  const inserted = await db
    .insert(campaignRecipients)
    .values({
      address: message.toPhone,
      body: message.body,
      kind: message.kind,
      dedupeKey: message.dedupeKey,
      subscriberId: message.subscriberId ?? null,
      consentEventId: message.consentEventId ?? null,
    })
    .onConflictDoNothing({ target: campaignRecipients.dedupeKey, where: sql`${campaignRecipients.dedupeKey} IS NOT NULL` })
    .returning({ id: campaignRecipients.id });
  return inserted[0]?.id ?? null;
}
