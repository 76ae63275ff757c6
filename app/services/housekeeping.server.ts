import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { AUTH_RATE_LIMIT_LONGEST_WINDOW } from "~/auth/auth.server";
import { ACCOUNT_FAILURES } from "~/auth/sign-in-lock.server";
import { RATE_LIMITS, type RateLimitRule } from "./rate-limit.server";
import { startJobLoop, type JobLogger, type JobLoop } from "./job-loop.server";

/** Rows deleted per statement: short statements that never hold many row locks at once. */
export const PRUNE_BATCH = 5_000;

/**
 * A counter whose rule is not in this list (added without updating it) is kept this long, longer
 * than any window we use: pruning it late costs space, pruning it early would reset a limit.
 */
export const UNKNOWN_RULE_KEEP_SECONDS = 24 * 3600;

/** Every rule that writes app_rate_limits rows, keyed `${name}:${subject}`. */
export function knownRateLimitRules(): RateLimitRule[] {
  return [...Object.values(RATE_LIMITS), ACCOUNT_FAILURES];
}

/** A whole number of our own as an SQL literal (typed, where a text parameter would not be). */
const seconds = (value: number) => sql.raw(String(Math.trunc(value)));

export type PruneCounts = { appRateLimits: number; authRateLimits: number; sessions: number; verifications: number };

/**
 * Deletes, in batches, until none is left: rate-limit windows that have passed, expired sessions
 * and expired verification tokens (e-mail links, password resets). Each batch takes its rows
 * with FOR UPDATE SKIP LOCKED, so processes pruning at the same time share the work instead of
 * waiting on each other, and a row a request is updating right now is left for the next round.
 */
export async function pruneExpired(db: Db, options: { isStopped?: () => boolean; batch?: number } = {}): Promise<PruneCounts> {
  const batch = options.batch ?? PRUNE_BATCH;
  const isStopped = options.isStopped ?? (() => false);
  const rules = knownRateLimitRules();
  const windowOf = sql.join(
    [
      sql`CASE split_part(key, ':', 1)`,
      ...rules.map((rule) => sql`WHEN ${rule.name} THEN ${seconds(rule.windowSeconds)}`),
      sql`ELSE ${seconds(UNKNOWN_RULE_KEEP_SECONDS)} END`,
    ],
    sql` `,
  );
  const passed = sql`window_started_at <= now() - make_interval(secs => ${windowOf})`;
  const authCutoffMs = sql`(extract(epoch FROM now()) * 1000)::bigint - ${seconds(AUTH_RATE_LIMIT_LONGEST_WINDOW * 1000)}`;

  const drain = async (table: SQL, keyColumn: SQL, condition: SQL) => {
    let total = 0;
    while (!isStopped()) {
      const result = await db.execute<{ deleted: unknown }>(sql`
        WITH due AS (SELECT ${keyColumn} AS k FROM ${table} WHERE ${condition} LIMIT ${batch} FOR UPDATE SKIP LOCKED),
        gone AS (DELETE FROM ${table} WHERE ${keyColumn} IN (SELECT k FROM due) AND ${condition} RETURNING 1)
        SELECT count(*) AS deleted FROM gone`);
      const deleted = toNumber(result.rows[0]?.deleted);
      total += deleted;
      if (deleted < batch) break;
    }
    return total;
  };

  return {
    appRateLimits: await drain(sql`app_rate_limits`, sql`key`, passed),
    authRateLimits: await drain(sql`rate_limit`, sql`id`, sql`last_request < ${authCutoffMs}`),
    sessions: await drain(sql`session`, sql`id`, sql`expires_at < now()`),
    verifications: await drain(sql`verification`, sql`id`, sql`expires_at < now()`),
  };
}

/**
 * Runs pruneExpired on every process, at start and every `intervalMs`; processes that prune at
 * the same moment skip each other's rows. Logs what it deleted, when it deleted any.
 */
export function startHousekeeping(options: { db: Db; logger: JobLogger; intervalMs: number; autoStart?: boolean }): JobLoop {
  const { db, logger, intervalMs } = options;
  return startJobLoop({
    name: "housekeeping",
    logger,
    pollMs: intervalMs,
    autoStart: options.autoStart,
    drain: async (isStopped) => {
      const counts = await pruneExpired(db, { isStopped });
      const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
      if (total > 0) logger.info({ job: "housekeeping", ...counts }, "pruned expired rows");
      return total;
    },
  });
}
