import { EventEmitter } from "node:events";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { emailMessages } from "~/db/schema";
import { backoffSeconds, startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";

export type EmailKind = (typeof emailMessages.$inferInsert)["kind"];
export type Email = {
  to: string;
  subject: string;
  text: string;
  kind: EmailKind;
  /** HTML part (newsletters); the plain text is always sent too. */
  html?: string | null;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string> | null;
};

export type EmailTransport = {
  name: "smtp" | "log";
  send(email: Email): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Closes pooled connections (SMTP). */
  close?: () => void;
};

const emailSignal = new EventEmitter();
const MAX_ATTEMPTS = 10;
const STALE_SENDING_MS = 5 * 60_000;

/** Stores the mail first, so a sign-up never depends on the mail server being up. */
export async function enqueueEmail(db: Pick<Db, "insert">, email: Email) {
  await db.insert(emailMessages).values({
    toAddress: email.to,
    subject: email.subject,
    text: email.text,
    kind: email.kind,
    html: email.html ?? null,
    headers: email.headers ? JSON.stringify(email.headers) : null,
  });
  emailSignal.emit("queued");
}

/** Sends queued mails; failures are retried with back-off (5 s doubling to 1 h, 10 attempts). */
export function startEmailWorker(options: { db: Db; transport: EmailTransport; logger: JobLogger; pollMs?: number; autoStart?: boolean }): JobLoop {
  const { db, transport, logger } = options;

  async function drain(isStopped: () => boolean) {
    let total = 0;
    await db
      .update(emailMessages)
      .set({ status: "queued", lockedAt: null })
      .where(and(eq(emailMessages.status, "sending"), lt(emailMessages.lockedAt, new Date(Date.now() - STALE_SENDING_MS))));
    while (!isStopped()) {
      const claimed = await db.execute<{
        id: number | string;
        to_address: string;
        subject: string;
        text: string;
        html: string | null;
        headers: string | null;
        kind: EmailKind;
        attempts: number;
      }>(sql`
        WITH due AS (
          SELECT id FROM email_messages WHERE status = 'queued' AND next_attempt_at <= now()
          ORDER BY next_attempt_at, id LIMIT 10 FOR UPDATE SKIP LOCKED)
        UPDATE email_messages e SET status = 'sending', locked_at = now(), attempts = e.attempts + 1
        FROM due WHERE e.id = due.id
        RETURNING e.id, e.to_address, e.subject, e.text, e.html, e.headers, e.kind, e.attempts`);
      if (claimed.rows.length === 0) break;
      for (const row of claimed.rows) {
        const id = Number(row.id);
        const result = await transport
          .send({ to: row.to_address, subject: row.subject, text: row.text, html: row.html, headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : null, kind: row.kind })
          .catch((error: Error) => ({ ok: false as const, error: error.message }));
        if (result.ok) {
          await db.update(emailMessages).set({ status: "sent", sentAt: sql`now()`, lockedAt: null, error: null }).where(eq(emailMessages.id, id));
        } else {
          const giveUp = row.attempts >= MAX_ATTEMPTS;
          await db
            .update(emailMessages)
            .set({
              status: giveUp ? "failed" : "queued",
              error: result.error.slice(0, 500),
              lockedAt: null,
              nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(row.attempts)})`,
            })
            .where(eq(emailMessages.id, id));
          logger.warn({ emailId: id, attempts: row.attempts, error: result.error, giveUp }, "e-mail send failed");
        }
      }
      total += claimed.rows.length;
    }
    return total;
  }

  return startJobLoop({ name: "email-outbox", drain, logger, pollMs: options.pollMs ?? 2000, signal: emailSignal, autoStart: options.autoStart });
}
