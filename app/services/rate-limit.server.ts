import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counter in the database, so the limit holds across processes and restarts.
 * One atomic upsert per call: the window restarts once it has passed.
 */
export async function hitRateLimit(db: Db, rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  const key = `${rule.name}:${subject}`;
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    INSERT INTO app_rate_limits (key, window_started_at, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN app_rate_limits.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                   THEN 1 ELSE app_rate_limits.count + 1 END,
      window_started_at = CASE WHEN app_rate_limits.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                   THEN now() ELSE app_rate_limits.window_started_at END
    RETURNING count,
      GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_started_at + make_interval(secs => ${rule.windowSeconds}) - now()))))::int AS retry_after`);
  const row = result.rows[0]!;
  return Number(row.count) <= rule.limit ? { allowed: true } : { allowed: false, retryAfterSeconds: Number(row.retry_after) };
}

/** The public forms: generous for people, tight for scripts (SECURITY.md section 8). */
export const RATE_LIMITS = {
  // Phones of one carrier share a few public addresses (carrier-grade NAT) and the opt-in page is
  // where mobile ads land: the number is the tight limit, the address only stops floods.
  optInPerPhone: { name: "opt-in-phone", limit: 5, windowSeconds: 600 },
  optInPerIp: { name: "opt-in-ip", limit: 300, windowSeconds: 600 },
  newsletterPerIp: { name: "newsletter-ip", limit: 10, windowSeconds: 600 },
  contactPerIp: { name: "contact-ip", limit: 5, windowSeconds: 600 },
  /** Password checks on the account page (before an e-mail change), per account. */
  accountPasswordPerUser: { name: "account-password", limit: 5, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;
