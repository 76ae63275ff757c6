import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";

/** The e-mail list at a glance: who gets the next issue, who has yet to confirm, who left. */
export async function newsletterAudienceCounts(db: Db) {
  const result = await db.execute<{ active: unknown; pending: unknown; ended: unknown }>(sql`
    SELECT count(*) FILTER (WHERE status = 'active') AS active,
      count(*) FILTER (WHERE status = 'pending') AS pending,
      count(*) FILTER (WHERE status IN ('unsubscribed', 'bounced', 'complained', 'expired')) AS ended
    FROM subscribers WHERE channel = 'email'`);
  const row = result.rows[0]!;
  return { active: toNumber(row.active), pending: toNumber(row.pending), ended: toNumber(row.ended) };
}
