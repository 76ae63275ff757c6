import { and, count, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { parseEmailReport } from "../consent/email-report";
import type { Db } from "~/db/client.server";
import { campaignRecipients, consentEvents, contactMessages, subscribers } from "~/db/schema";

export const PAGE_SIZE = 50;

export async function subscriberCounts(db: Db) {
  const rows = await db
    .select({ channel: subscribers.channel, status: subscribers.status, source: subscribers.source, n: count() })
    .from(subscribers)
    .groupBy(subscribers.channel, subscribers.status, subscribers.source);
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/** Web opt-ins per day for the last `days` days, oldest first, with empty days as 0. */
export async function optInsPerDay(db: Db, days = 90) {
  const result = await db.execute<{ day: string; n: number }>(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(e.id)::int AS n
    FROM generate_series(current_date - ${days - 1}::int, current_date, interval '1 day') AS d(day)
    LEFT JOIN consent_events e ON e.action = 'opt_in' AND e.occurred_at >= d.day AND e.occurred_at < d.day + interval '1 day'
    GROUP BY d.day ORDER BY d.day`);
  return result.rows.map((row) => ({ day: row.day, n: Number(row.n) }));
}

/** The list's `q` search as a condition on `subscribers` (undefined without a term), shared by the filtered sign-up list. */
export function subscriberSearch(search: string | undefined) {
  const term = search?.trim();
  return term
    ? or(
        ilike(subscribers.firstName, `%${term}%`),
        ilike(subscribers.lastName, `%${term}%`),
        ilike(subscribers.email, `%${term}%`),
        ilike(subscribers.phoneE164, `%${term.replace(/[^\d+]/g, "") || term}%`),
        ilike(subscribers.clickId, `%${term}%`),
      )
    : undefined;
}

export async function listSubscribers(db: Db, options: { search?: string; page: number }) {
  const where = subscriberSearch(options.search);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(subscribers)
      .where(where)
      .orderBy(desc(subscribers.createdAt), desc(subscribers.id))
      .limit(PAGE_SIZE)
      .offset((options.page - 1) * PAGE_SIZE),
    db.select({ n: count() }).from(subscribers).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** A subscriber's consent events as stored, each newsletter provider report read back (decision 125). */
export async function consentHistory(db: Db, subscriberId: string) {
  const events = await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriberId)).orderBy(consentEvents.occurredAt, consentEvents.id);
  return events.map((event) => ({ ...event, emailReport: parseEmailReport(event) }));
}

/**
 * The Messages page: texts of their own (welcomes, replies, codes, tests), newest first, read off
 * campaign_recipients_texts_idx; a campaign's texts are on its results page.
 */
export async function listMessages(db: Db, page: number) {
  const r = campaignRecipients;
  return db
    .select({
      id: r.id,
      toPhone: r.address,
      body: sql<string>`coalesce(${r.body}, '')`,
      kind: r.kind,
      status: r.state,
      attempts: r.attempts,
      nextAttemptAt: r.nextAttemptAt,
      providerId: r.providerId,
      providerStatus: r.providerStatus,
      error: r.error,
      createdAt: r.createdAt,
      sentAt: r.sentAt,
    })
    .from(r)
    .where(isNull(r.campaignId))
    .orderBy(desc(r.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
}

export async function listContactMessages(db: Db, page: number) {
  return db.select().from(contactMessages).orderBy(desc(contactMessages.id)).limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE);
}



/** Messages staff have now seen in the inbox stop counting as unread on the staff home. */
export async function markContactMessagesRead(db: Db, ids: number[]) {
  if (ids.length === 0) return;
  await db.update(contactMessages).set({ readAt: sql`now()` }).where(and(inArray(contactMessages.id, ids), isNull(contactMessages.readAt)));
}
