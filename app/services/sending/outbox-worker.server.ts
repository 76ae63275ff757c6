import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsMessages } from "~/db/schema";
import { addInternalDnc } from "../dnc/dnc.server";
import { claimDueMessages, type SmsKind } from "./outbox.server";
import { outboxSignal } from "./outbox-signal.server";
import { backoffSeconds, startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";
import type { SmsTransport } from "../providers/sms-transport.server";
import { databaseErrorReason, isDatabaseUnavailable } from "~/db/unavailable";

export const MAX_ATTEMPTS = 8;
const STALE_SENDING_MS = 5 * 60_000;

export { backoffSeconds };

/** Replies to a person's own text go regardless of marketing consent; STOP's confirmation even after opting out. */
const REPLY_KINDS: SmsKind[] = ["help", "stop_confirmation"];

type ClaimedMessage = Awaited<ReturnType<typeof claimDueMessages>>[number];

/** Why a message may not go out now, or null when it may. Checked right before every send. */
function blockReason(message: ClaimedMessage) {
  if (REPLY_KINDS.includes(message.kind)) return null;
  if (message.optedOut) return "the number opted out (on our Do-Not-Call list)";
  // A test text, and a code a signed-in reader asked for to confirm their number: not marketing.
  if (message.kind === "test" || message.kind === "verification_code") return null;
  if (!message.subscriberId) return "no subscriber consent on record";
  // The request for a "Y" goes only while its double opt-in is still waiting for the answer.
  if (message.kind === "doi_request") return message.subscriberStatus === "pending" ? null : `the subscriber is ${message.subscriberStatus ?? "missing"}, not pending`;
  if (message.subscriberStatus !== "active") return `the subscriber is ${message.subscriberStatus ?? "missing"}, not active`;
  return null;
}

export type OutboxWorker = JobLoop;

/**
 * Sends queued texts. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of workers in
 * any number of processes send each message once. A row left "sending" by a crash is not retried
 * (it may have reached the provider): it is marked failed for a person to look at.
 */
export function startOutboxWorker(options: {
  db: Db;
  transport: SmsTransport;
  logger: JobLogger;
  pollMs?: number;
  batchSize?: number;
  autoStart?: boolean;
}): OutboxWorker {
  const { db, transport, logger, batchSize = 20 } = options;

  async function processMessage(message: ClaimedMessage) {
    const reason = blockReason(message);
    if (reason) {
      await db
        .update(smsMessages)
        .set({ status: "cancelled", error: `Not sent: ${reason}.`, lockedAt: null })
        .where(eq(smsMessages.id, message.id));
      logger.warn({ smsId: message.id, reason }, "SMS cancelled before sending");
      return;
    }
    const result = await transport.send({ id: message.id, to: message.toPhone, body: message.body });
    if (result.ok) {
      await db
        .update(smsMessages)
        .set({ status: "sent", providerId: result.providerId, providerStatus: result.providerStatus, sentAt: sql`now()`, lockedAt: null, error: null })
        .where(eq(smsMessages.id, message.id));
      return;
    }
    if (result.optedOut) await addInternalDnc(db, message.toPhone.replace(/^\+1/, ""));
    const giveUp = !result.retryable || message.attempts >= MAX_ATTEMPTS;
    await db
      .update(smsMessages)
      .set(
        giveUp
          ? { status: "failed", error: result.error, lockedAt: null }
          : {
              status: "queued",
              error: result.error,
              lockedAt: null,
              nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(message.attempts)})`,
            },
      )
      .where(eq(smsMessages.id, message.id));
    logger.warn({ smsId: message.id, attempts: message.attempts, error: result.error, giveUp }, "SMS send failed");
  }

  async function failStaleSends() {
    await db
      .update(smsMessages)
      .set({ status: "failed", error: "Interrupted while sending; not retried so it cannot be sent twice.", lockedAt: null })
      .where(and(eq(smsMessages.status, "sending"), lt(smsMessages.lockedAt, new Date(Date.now() - STALE_SENDING_MS))));
  }

  async function drain(isStopped: () => boolean) {
    let total = 0;
    await failStaleSends();
    while (!isStopped()) {
      const batch = await claimDueMessages(db, batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        try {
          await processMessage(message);
        } catch (error) {
          // The row stays "sending" and is marked interrupted later, never retried: it may have gone out.
          if (isDatabaseUnavailable(error)) {
            logger.warn({ smsId: message.id, reason: databaseErrorReason(error) }, "database lost during a send; the text is not retried");
            throw error;
          }
          // Leave the row for a person rather than risk a second send.
          logger.error({ smsId: message.id, err: error }, "SMS outbox error");
        }
      }
      total += batch.length;
    }
    return total;
  }

  return startJobLoop({ name: "sms-outbox", drain, logger, pollMs: options.pollMs, signal: outboxSignal, autoStart: options.autoStart });
}
