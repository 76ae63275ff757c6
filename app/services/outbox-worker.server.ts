import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsMessages } from "~/db/schema";
import { addInternalDnc } from "./dnc.server";
import { claimDueMessages, type SmsKind } from "./outbox.server";
import { outboxSignal } from "./outbox-signal.server";
import type { SmsTransport } from "./sms-transport.server";

export const MAX_ATTEMPTS = 8;
const STALE_SENDING_MS = 5 * 60_000;

/** 5 s, 10 s, 20 s ... capped at one hour. */
export function backoffSeconds(attempts: number) {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));
}

type Logger = {
  info: (entry: Record<string, unknown>, message: string) => void;
  warn: (entry: Record<string, unknown>, message: string) => void;
  error: (entry: Record<string, unknown>, message: string) => void;
};

/** Replies to a person's own text go regardless of marketing consent; STOP's confirmation even after opting out. */
const REPLY_KINDS: SmsKind[] = ["help", "stop_confirmation"];

type ClaimedMessage = Awaited<ReturnType<typeof claimDueMessages>>[number];

/** Why a message may not go out now, or null when it may. Checked right before every send. */
function blockReason(message: ClaimedMessage) {
  if (REPLY_KINDS.includes(message.kind)) return null;
  if (message.optedOut) return "the number opted out (on our Do-Not-Call list)";
  if (message.kind === "test") return null;
  if (!message.subscriberId) return "no subscriber consent on record";
  if (message.subscriberStatus !== "active") return `the subscriber is ${message.subscriberStatus ?? "missing"}, not active`;
  return null;
}

export type OutboxWorker = { runOnce: () => Promise<number>; stop: () => Promise<void> };

/**
 * Sends queued texts. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of workers in
 * any number of processes send each message once. A row left "sending" by a crash is not retried
 * (it may have reached the provider): it is marked failed for a person to look at.
 */
export function startOutboxWorker(options: {
  db: Db;
  transport: SmsTransport;
  logger: Logger;
  pollMs?: number;
  batchSize?: number;
  autoStart?: boolean;
}): OutboxWorker {
  const { db, transport, logger, pollMs = 1000, batchSize = 20 } = options;
  let stopped = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;

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

  async function drain() {
    let total = 0;
    await failStaleSends();
    for (;;) {
      if (stopped) break;
      const batch = await claimDueMessages(db, batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        try {
          await processMessage(message);
        } catch (error) {
          // Leave the row for a person rather than risk a second send.
          logger.error({ smsId: message.id, err: error }, "SMS outbox error");
        }
      }
      total += batch.length;
    }
    return total;
  }

  const runOnce = () => {
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () => {
    if (stopped) return;
    runOnce()
      .catch((error: unknown) => logger.error({ err: error }, "SMS outbox poll failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  const onQueued = () => void runOnce().catch(() => {});
  if (options.autoStart !== false) {
    outboxSignal.on("queued", onQueued);
    tick();
  }

  return {
    runOnce,
    stop: async () => {
      stopped = true;
      outboxSignal.off("queued", onQueued);
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
