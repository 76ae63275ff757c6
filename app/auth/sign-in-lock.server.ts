import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { hitRateLimit } from "~/services/rate-limit.server";

/** 10 failed sign-ins for one account within 15 minutes lock it for the rest of the window. */
export const ACCOUNT_FAILURES = { name: "signin-failures", limit: 10, windowSeconds: 15 * 60 };

const keyOf = (email: string) => `${ACCOUNT_FAILURES.name}:${email.trim().toLowerCase()}`;

export async function failedSignInLock(db: Db, email: string) {
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    SELECT count, GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_started_at + make_interval(secs => ${ACCOUNT_FAILURES.windowSeconds}) - now()))))::int AS retry_after
    FROM app_rate_limits WHERE key = ${keyOf(email)} AND window_started_at > now() - make_interval(secs => ${ACCOUNT_FAILURES.windowSeconds})`);
  const row = result.rows[0];
  return row && Number(row.count) >= ACCOUNT_FAILURES.limit ? { retryAfterSeconds: Number(row.retry_after) } : null;
}

export async function recordFailedSignIn(db: Db, email: string) {
  await hitRateLimit(db, ACCOUNT_FAILURES, email.trim().toLowerCase());
}

export async function clearFailedSignIns(db: Db, email: string) {
  await db.execute(sql`DELETE FROM app_rate_limits WHERE key = ${keyOf(email)}`);
}
