import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { toNumber, type Db } from "~/db/client.server";
import { rateLimit, rateLimits, session, user, verification } from "~/db/schema";
import { ACCOUNT_FAILURES } from "~/auth/sign-in-lock.server";
import { DB_KINDS, useTestDatabase } from "../../tests/support/test-db";
import { pruneExpired, UNKNOWN_RULE_KEEP_SECONDS } from "./housekeeping.server";
import { hitRateLimit, RATE_LIMITS } from "./rate-limit.server";

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

async function keys(db: Db, table: "app_rate_limits" | "rate_limit") {
  const result = await db.execute<{ key: string }>(sql`SELECT key FROM ${sql.raw(table)} ORDER BY key`);
  return result.rows.map((row) => row.key);
}

describe.each(DB_KINDS)("pruneExpired on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("deletes each rate-limit window once its own rule's window has passed, and nothing still counting", async () => {
    const { db } = database;
    const optIn = RATE_LIMITS.optInPerIp;
    await db.insert(rateLimits).values([
      { key: `${optIn.name}:198.18.0.1`, windowStartedAt: secondsAgo(optIn.windowSeconds + 5), count: 3 },
      { key: `${optIn.name}:198.18.0.2`, windowStartedAt: secondsAgo(optIn.windowSeconds - 30), count: 3 },
      // Older than the opt-in window but inside the sign-in lock's 15 minutes: still locks.
      { key: `${ACCOUNT_FAILURES.name}:ann@example.com`, windowStartedAt: secondsAgo(optIn.windowSeconds + 5), count: 10 },
      { key: `${ACCOUNT_FAILURES.name}:bob@example.com`, windowStartedAt: secondsAgo(ACCOUNT_FAILURES.windowSeconds + 5), count: 10 },
      { key: "rule-added-later:x", windowStartedAt: secondsAgo(ACCOUNT_FAILURES.windowSeconds + 5), count: 1 },
      { key: "rule-added-later:y", windowStartedAt: secondsAgo(UNKNOWN_RULE_KEEP_SECONDS + 5), count: 1 },
    ]);
    await db.insert(rateLimit).values([
      { id: "a", key: "198.18.0.1/sign-in/email", count: 3, lastRequest: Date.now() - 120_000 },
      { id: "b", key: "198.18.0.2/sign-in/email", count: 3, lastRequest: Date.now() - 5_000 },
    ]);
    const counts = await pruneExpired(db, { batch: 2 });
    expect(counts).toMatchObject({ appRateLimits: 3, authRateLimits: 1 });
    expect(await keys(db, "app_rate_limits")).toEqual([`${optIn.name}:198.18.0.2`, `${ACCOUNT_FAILURES.name}:ann@example.com`, "rule-added-later:x"].sort());
    expect(await keys(db, "rate_limit")).toEqual(["198.18.0.2/sign-in/email"]);
    // A window that restarts after pruning starts from one again.
    expect(await hitRateLimit(db, optIn, "198.18.0.1")).toEqual({ allowed: true });
  });

  it("deletes expired sessions and verification tokens, keeps live ones, in batches larger than one round", async () => {
    const { db } = database;
    await db.insert(user).values({ id: "u1", name: "Ann", email: "ann@example.com" });
    const now = new Date();
    await db.insert(session).values(
      Array.from({ length: 7 }, (_, i) => ({
        id: `s${i}`,
        token: `t${i}`,
        userId: "u1",
        updatedAt: now,
        expiresAt: i < 5 ? secondsAgo(60) : new Date(Date.now() + 3600_000),
      })),
    );
    await db.insert(verification).values([
      { id: "v1", identifier: "ann@example.com", value: "x", expiresAt: secondsAgo(1) },
      { id: "v2", identifier: "ann@example.com", value: "y", expiresAt: new Date(Date.now() + 3600_000) },
    ]);
    const counts = await pruneExpired(db, { batch: 2 });
    expect(counts).toMatchObject({ sessions: 5, verifications: 1 });
    const left = await db.execute<{ sessions: unknown; verifications: unknown }>(
      sql`SELECT (SELECT count(*) FROM session) AS sessions, (SELECT count(*) FROM verification) AS verifications`,
    );
    expect(toNumber(left.rows[0]!.sessions)).toBe(2);
    expect(toNumber(left.rows[0]!.verifications)).toBe(1);
    expect(await pruneExpired(db)).toEqual({ appRateLimits: 0, authRateLimits: 0, sessions: 0, verifications: 0 });
  });
});
