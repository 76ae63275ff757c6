import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsMessages } from "~/db/schema";

export type SmsKind = (typeof smsMessages.$inferInsert)["kind"];

type Executor = Pick<Db, "insert">;

/**
 * Queues a text. The dedupe key makes this idempotent: the same key never queues twice, so a
 * retried request or a duplicate webhook cannot send a second message.
 */
export async function enqueueSms(
  db: Executor,
  message: { toPhone: string; body: string; kind: SmsKind; dedupeKey: string; subscriberId?: string | null },
) {
  const inserted = await db
    .insert(smsMessages)
    .values({ ...message, subscriberId: message.subscriberId ?? null })
    .onConflictDoNothing({ target: smsMessages.dedupeKey })
    .returning({ id: smsMessages.id });
  return inserted[0]?.id ?? null;
}

export const OUTBOX_WAKE_CHANNEL = "sms_outbox";

/**
 * Claims due messages for one worker; rows locked by another worker are skipped, never shared.
 * Each row comes with what the send gate needs (the subscriber's status, whether the number is on
 * our opt-out list), read in the same statement, right before the send.
 */
export async function claimDueMessages(db: Db, limit: number) {
  const result = await db.execute<{
    id: number | string;
    to_phone: string;
    body: string;
    kind: SmsKind;
    attempts: number;
    subscriber_id: string | null;
    subscriber_status: string | null;
    opted_out: boolean;
  }>(sql`
    WITH due AS (
      SELECT id FROM sms_messages
      WHERE status = 'queued' AND next_attempt_at <= now()
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE sms_messages m SET status = 'sending', locked_at = now(), attempts = m.attempts + 1
    FROM due WHERE m.id = due.id
    RETURNING m.id, m.to_phone, m.body, m.kind, m.attempts, m.subscriber_id,
      (SELECT s.status FROM subscribers s WHERE s.id = m.subscriber_id) AS subscriber_status,
      EXISTS (SELECT 1 FROM dnc_numbers d WHERE d.phone = substr(m.to_phone, 3)::char(10) AND d.source = 'internal') AS opted_out`);
  return result.rows.map((row) => ({
    id: Number(row.id),
    toPhone: row.to_phone,
    body: row.body,
    kind: row.kind,
    attempts: row.attempts,
    subscriberId: row.subscriber_id,
    subscriberStatus: row.subscriber_status,
    optedOut: row.opted_out === true || (row.opted_out as unknown) === "t",
  }));
}
