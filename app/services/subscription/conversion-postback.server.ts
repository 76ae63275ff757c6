import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversionPostbacks } from "~/db/schema";
import { databaseErrorReason, isDatabaseUnavailable } from "~/db/unavailable";
import { startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";
import { EventEmitter } from "node:events";

export type PostbackEvent = "opt_in" | "doi_confirmed";

/** After this many attempts a postback is left as failed for a person to look at. */
export const POSTBACK_MAX_ATTEMPTS = 10;
/** A call left "sending" this long was cut off (a crash); it is sent again with the same id. */
export const POSTBACK_STALE_SECONDS = 30;
const REQUEST_TIMEOUT_MS = 10_000;
/** The retry time is the database's clock; the wake-up comes a little after it. */
const WAKE_MARGIN_MS = 25;

/** 2 s, 4 s, 8 s ... capped at one hour: ad networks attribute within hours, not days. */
export function postbackBackoffSeconds(attempts: number) {
  return Math.min(3600, 2 ** Math.max(1, attempts));
}

/**
 * Fills the operator's URL template. Every value is URL-encoded, so a click id cannot change
 * the address's shape. `{id}` is the stable idempotency id (also sent as Idempotency-Key).
 */
export function renderPostbackUrl(template: string, values: { clickId: string; event: string; timestamp: Date; id: string }) {
  const replacements: Record<string, string> = {
    clickId: values.clickId,
    event: values.event,
    timestamp: String(Math.floor(values.timestamp.getTime() / 1000)),
    id: values.id,
  };
  return template.replace(/\{(clickId|event|timestamp|id)\}/g, (_, name: string) => encodeURIComponent(replacements[name]!));
}

export type PostbackRow = Omit<typeof conversionPostbacks.$inferInsert, "subscriberId">;

export type PostbackSkipReason = "gpc";

/**
 * Why a conversion's postback must not be sent (decision 153), or null when it may be. A browser
 * that sent Global Privacy Control (Sec-GPC: 1) opted out of the sale or sharing of the person's
 * data; a click id handed back to an ad platform (or to a tracker that passes it on) is such
 * sharing, so it is withheld unless the operator marked the postback URL as first-party
 * (CONVERSION_POSTBACK_AD_PLATFORM=no). Without a click id there is no postback at all.
 */
export function postbackSkipReason(conversion: { clickId: string | null | undefined; gpc: boolean }, feedsAdPlatform: boolean): PostbackSkipReason | null {
  if (!conversion.clickId) return null;
  return conversion.gpc && feedsAdPlatform ? "gpc" : null;
}

/**
 * The row to queue for one conversion, or null when postbacks are off or there is no click id.
 * A postback withheld by the rule above is still written, as `skipped` with its reason, so the
 * record (and the consent certificate) says it was not sent and why; the worker never claims it.
 * `feedsAdPlatform` is CONVERSION_POSTBACK_AD_PLATFORM; absent means yes, the safe default.
 */
export function postbackRow(
  template: string | null | undefined,
  conversion: { clickId: string | null | undefined; event: PostbackEvent; at: Date; gpc?: boolean },
  feedsAdPlatform = true,
): PostbackRow | null {
  if (!template || !conversion.clickId) return null;
  const dedupeKey = randomUUID();
  const skipReason = postbackSkipReason({ clickId: conversion.clickId, gpc: conversion.gpc === true }, feedsAdPlatform);
  return {
    dedupeKey,
    clickId: conversion.clickId,
    event: conversion.event,
    url: renderPostbackUrl(template, { clickId: conversion.clickId, event: conversion.event, timestamp: conversion.at, id: dedupeKey }),
    occurredAt: conversion.at,
    ...(skipReason ? { status: "skipped" as const, skipReason } : {}),
  };
}

/** Whether a row is one for the worker to send (a skipped one only records that it was withheld). */
export function postbackToSend(row: PostbackRow | null) {
  return row !== null && row.status !== "skipped";
}

type Executor = Pick<Db, "insert">;

/**
 * Queues a postback inside the caller's transaction, so it exists exactly when the conversion
 * does; true when there is now a call for the worker to send (false for none or a skipped one).
 */
export async function enqueuePostback(tx: Executor, subscriberId: string, row: PostbackRow | null) {
  if (!row) return false;
  await tx.insert(conversionPostbacks).values({ ...row, subscriberId }).onConflictDoNothing({ target: conversionPostbacks.dedupeKey });
  return postbackToSend(row);
}

/** Wakes the postback worker at once after an opt-in queued a call (the poll is only the fallback). */
export const postbackSignal = new EventEmitter();
export function nudgePostbacks() {
  postbackSignal.emit("queued");
}

type Claimed = { id: number; url: string; dedupeKey: string; attempts: number };

/**
 * Claims due postbacks for one worker with FOR UPDATE SKIP LOCKED (so processes never share a
 * row), including calls another process left "sending" when it died: the receiver dedupes on
 * the id we pass, so sending those again is safe and is what makes the conversion count.
 */
export async function claimDuePostbacks(db: Db, limit: number): Promise<Claimed[]> {
  const result = await db.execute<{ id: number | string; url: string; dedupe_key: string; attempts: number }>(sql`
    WITH due AS (
      SELECT id FROM conversion_postbacks
      WHERE (status = 'queued' AND next_attempt_at <= now())
         OR (status = 'sending' AND locked_at < now() - make_interval(secs => ${POSTBACK_STALE_SECONDS}))
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE conversion_postbacks p SET status = 'sending', locked_at = now(), attempts = p.attempts + 1
    FROM due WHERE p.id = due.id
    RETURNING p.id, p.url, p.dedupe_key, p.attempts`);
  return result.rows.map((row) => ({ id: Number(row.id), url: row.url, dedupeKey: row.dedupe_key, attempts: Number(row.attempts) }));
}

export type PostbackFetch = (url: string, init: { method: "GET"; headers: Record<string, string>; signal: AbortSignal }) => Promise<{ status: number }>;

/**
 * Sends queued conversion postbacks: GET the rendered URL with an Idempotency-Key header; a 2xx
 * is done, a 4xx other than 408/429 is a wrong URL and is not retried, anything else is retried
 * with back-off. Never on the visitor's request path.
 */
export function startPostbackWorker(options: {
  db: Db;
  logger: JobLogger;
  fetch?: PostbackFetch;
  pollMs?: number;
  batchSize?: number;
  autoStart?: boolean;
}): JobLoop {
  const { db, logger, batchSize = 20 } = options;
  const send: PostbackFetch = options.fetch ?? ((url, init) => fetch(url, { ...init, redirect: "follow" }));

  // A refused call is tried again when its back-off ends (2 s, 4 s, 8 s ...), not at the first
  // poll after that, which made the waits 4, 4 and 8 s.
  const wakeUps = new Set<NodeJS.Timeout>();
  function wakeAfter(seconds: number) {
    if (options.autoStart === false) return;
    const timer = setTimeout(() => {
      wakeUps.delete(timer);
      // A drain under way may already be past its last claim: one more run after it finds the call due.
      void loop
        .runOnce()
        .then(() => loop.runOnce())
        .catch(() => {});
    }, seconds * 1000 + WAKE_MARGIN_MS);
    timer.unref();
    wakeUps.add(timer);
  }

  async function sendOne(postback: Claimed) {
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await send(postback.url, {
        method: "GET",
        headers: { "Idempotency-Key": postback.dedupeKey, "User-Agent": "conversion-postback" },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = response.status;
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (cause) {
      error = cause instanceof Error ? cause.message.slice(0, 300) : "request failed";
    }
    if (!error) {
      await db
        .update(conversionPostbacks)
        .set({ status: "sent", responseStatus: status, error: null, lockedAt: null, sentAt: sql`now()` })
        .where(eq(conversionPostbacks.id, postback.id));
      return;
    }
    const permanent = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    const giveUp = permanent || postback.attempts >= POSTBACK_MAX_ATTEMPTS;
    await db
      .update(conversionPostbacks)
      .set(
        giveUp
          ? { status: "failed", responseStatus: status, error, lockedAt: null }
          : {
              status: "queued",
              responseStatus: status,
              error,
              lockedAt: null,
              nextAttemptAt: sql`now() + make_interval(secs => ${postbackBackoffSeconds(postback.attempts)})`,
            },
      )
      .where(eq(conversionPostbacks.id, postback.id));
    if (!giveUp) wakeAfter(postbackBackoffSeconds(postback.attempts));
    logger.warn({ postbackId: postback.id, attempts: postback.attempts, error, giveUp }, "conversion postback failed");
  }

  async function drain(isStopped: () => boolean) {
    let total = 0;
    while (!isStopped()) {
      const batch = await claimDuePostbacks(db, batchSize);
      if (batch.length === 0) break;
      for (const postback of batch) {
        try {
          await sendOne(postback);
        } catch (error) {
          // The row stays "sending" and is claimed again once stale; the receiver dedupes the repeat.
          if (isDatabaseUnavailable(error)) {
            logger.warn({ postbackId: postback.id, reason: databaseErrorReason(error) }, "database lost during a postback; it is retried later");
            throw error;
          }
          logger.error({ postbackId: postback.id, err: error }, "conversion postback error");
        }
      }
      total += batch.length;
    }
    return total;
  }

  const loop = startJobLoop({ name: "conversion-postbacks", drain, logger, pollMs: options.pollMs ?? 2000, signal: postbackSignal, autoStart: options.autoStart });
  return {
    runOnce: loop.runOnce,
    stop: async () => {
      for (const timer of wakeUps) clearTimeout(timer);
      wakeUps.clear();
      await loop.stop();
    },
  };
}
