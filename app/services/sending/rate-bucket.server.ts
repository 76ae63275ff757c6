import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

type Executor = Pick<Db, "execute">;

/**
 * The bucket holds one second of sending: a sender slowed down for a moment (a busy database)
 * catches up instead of losing its share, while over any minute the rate stays within one
 * second's worth of SMS_MPS.
 */
export function burstFor(ratePerSecond: number) {
  return Math.max(1, Math.floor(ratePerSecond));
}

/**
 * Takes up to `want` tokens from a bucket kept in the database, so every process sending for the
 * same sender together keeps `ratePerSecond`. The row lock serialises the takers; the database
 * clock refills the bucket. Returns how many were granted and, when none, how long to wait.
 */
export async function takeTokens(db: Executor, key: string, ratePerSecond: number, want: number) {
  const burst = burstFor(ratePerSecond);
  await db.execute(sql`INSERT INTO send_rate_buckets (key, tokens, updated_at) VALUES (${key}, ${burst}, clock_timestamp()) ON CONFLICT (key) DO NOTHING`);
  const result = await db.execute<{ granted: number | string; available: number | string }>(sql`
    WITH clock AS (SELECT clock_timestamp() AS t),
    current AS (
      SELECT b.key, LEAST(${burst}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock.t - b.updated_at)) * ${ratePerSecond}::float8) AS available, clock.t
      FROM send_rate_buckets b, clock WHERE b.key = ${key} FOR UPDATE OF b
    )
    UPDATE send_rate_buckets b
    SET tokens = current.available - LEAST(floor(current.available), ${want}::float8), updated_at = current.t
    FROM current WHERE b.key = current.key
    RETURNING LEAST(floor(current.available), ${want}::float8)::int AS granted, current.available::float8 AS available`);
  const row = result.rows[0];
  const granted = Number(row?.granted ?? 0);
  const available = Number(row?.available ?? 0);
  return { granted, waitMs: granted > 0 ? 0 : Math.max(1, Math.ceil(((1 - available) / ratePerSecond) * 1000)) };
}

/** Gives back tokens that were taken but not used (a row that waits or is skipped sends nothing). */
export async function returnTokens(db: Executor, key: string, ratePerSecond: number, count: number) {
  if (count <= 0) return;
  await db.execute(sql`UPDATE send_rate_buckets SET tokens = LEAST(${burstFor(ratePerSecond)}::float8, tokens + ${count}::float8) WHERE key = ${key}`);
}
