import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { SMS_MESSAGES_PER_DAY } from "~/lib/consent-texts";
import { startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";

/** A pending double opt-in expires after this long without a "Y" (COMPLIANCE.md 1.4). */
export const DOI_CONFIRM_HOURS = 72;

export function confirmByFrom(now: Date) {
  return new Date(now.getTime() + DOI_CONFIRM_HOURS * 3_600_000);
}

/**
 * The first text of a double opt-in. It asks for "Y", which Twilio does not treat as a keyword,
 * so only our welcome answers it (a "YES" is also Twilio's opt-in keyword; see decision 040).
 */
export function doubleOptInRequest(siteName: string) {
  return `${siteName}: Reply Y to confirm market alert texts (up to ${SMS_MESSAGES_PER_DAY} msgs/day). Msg&data rates may apply. Reply HELP for help, STOP to cancel.`;
}

/** "Y" or "YES", however written ("y", "Yes!", " YES. "). */
export function isConfirmReply(body: string) {
  const word = body.toUpperCase().replace(/[^A-Z]+/g, "");
  return word === "Y" || word === "YES";
}

/**
 * Ends every pending double opt-in whose 72 hours have passed at `now`: the subscriber becomes
 * `expired` and a `doi_expired` event joins the evidence, in one statement. No reminder is sent.
 * Returns how many expired.
 */
export async function expirePendingOptIns(db: Db, now: Date) {
  const result = await db.execute<{ n: number | string }>(sql`
    WITH expired AS (
      UPDATE subscribers SET status = 'expired', updated_at = now()
      WHERE status = 'pending' AND confirm_by <= ${now.toISOString()}::timestamptz
      RETURNING id, phone_e164
    ), events AS (
      INSERT INTO consent_events (subscriber_id, channel, action, phone_e164, source)
      SELECT id, 'sms', 'doi_expired', phone_e164, 'double-opt-in' FROM expired
      RETURNING id
    )
    SELECT count(*) AS n FROM events`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Expires unconfirmed opt-ins once a minute (any number of processes may run it: the UPDATE decides). */
export function startDoubleOptInExpiry(options: { db: Db; logger: JobLogger; pollMs?: number; now?: () => Date }): JobLoop {
  const { db, logger } = options;
  return startJobLoop({
    name: "double-opt-in-expiry",
    logger,
    pollMs: options.pollMs ?? 60_000,
    drain: async () => {
      const expired = await expirePendingOptIns(db, options.now?.() ?? new Date());
      if (expired > 0) logger.info({ expired }, "unconfirmed double opt-ins expired");
      return expired;
    },
  });
}
