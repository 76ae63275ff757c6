import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { consentEvents, emailEvents, subscribers } from "~/db/schema";
import { emailReportBody } from "../consent/email-report";

/** Mailgun retries a webhook for hours with the same signature; older than this is refused. */
const MAX_AGE_SECONDS = 12 * 3600;

const MailgunWebhookSchema = z.object({
  signature: z.object({
    timestamp: z.string().regex(/^\d{1,12}$/),
    token: z.string().min(1).max(200),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  "event-data": z.object({
    id: z.string().min(1).max(200),
    event: z.string().min(1).max(50),
    severity: z.string().max(50).optional(),
    recipient: z.string().min(3).max(320),
    reason: z.string().max(200).optional(),
    "delivery-status": z.object({ code: z.number().optional(), message: z.string().optional(), description: z.string().optional() }).partial().optional(),
    // Evidence only: a value of another shape is dropped rather than the event refused.
    timestamp: z.number().finite().positive().optional().catch(undefined),
    message: z
      .object({ headers: z.object({ "message-id": z.string().max(998).optional() }).partial().optional() })
      .partial()
      .optional()
      .catch(undefined),
  }),
});

export type MailgunWebhook = z.infer<typeof MailgunWebhookSchema>;

/** Mailgun's scheme: hex HMAC-SHA256 of timestamp + token, keyed with the webhook signing key. */
export function mailgunSignature(signingKey: string, timestamp: string, token: string) {
  return createHmac("sha256", signingKey).update(timestamp + token).digest("hex");
}

export type MailgunVerdict = { ok: true; webhook: MailgunWebhook } | { ok: false; status: 400 | 403; error: string };

export function verifyMailgunWebhook(body: unknown, signingKey: string, nowSeconds = Math.floor(Date.now() / 1000)): MailgunVerdict {
  const parsed = MailgunWebhookSchema.safeParse(body);
  if (!parsed.success) return { ok: false, status: 400, error: "Not a Mailgun webhook: signature and event-data are required." };
  const { timestamp, token, signature } = parsed.data.signature;
  const expected = Buffer.from(mailgunSignature(signingKey, timestamp, token), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return { ok: false, status: 403, error: "The webhook signature does not match." };
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_AGE_SECONDS) return { ok: false, status: 403, error: "The webhook is too old." };
  return { ok: true, webhook: parsed.data };
}

type Effect = { status: "bounced" | "complained" | "unsubscribed"; action: "email_bounce" | "email_complaint" | "email_unsubscribe" } | null;

/** Only a permanent failure is a hard bounce; a temporary one is retried by the provider. */
function effectOf(event: MailgunWebhook["event-data"]): Effect {
  if (event.event === "failed" && event.severity === "permanent") return { status: "bounced", action: "email_bounce" };
  if (event.event === "complained") return { status: "complained", action: "email_complaint" };
  if (event.event === "unsubscribed") return { status: "unsubscribed", action: "email_unsubscribe" };
  return null;
}

/** Mailgun's event as the consent record keeps it: what happened, when, and the server's answer. */
function reportOf(event: MailgunWebhook["event-data"]) {
  const status = event["delivery-status"];
  return emailReportBody({
    provider: "mailgun",
    eventId: event.id,
    event: event.event,
    severity: event.severity ?? null,
    at: event.timestamp && event.timestamp < 1e11 ? new Date(Math.round(event.timestamp * 1000)).toISOString() : null,
    reason: event.reason ?? null,
    code: status?.code ?? null,
    message: status?.message ?? null,
    description: status?.description ?? null,
    messageId: event.message?.headers?.["message-id"] ?? null,
  });
}

/**
 * Applies one verified event once: hard bounces and complaints suppress the address for good,
 * a provider-side unsubscribe unsubscribes. Each of them is also a consent event of the
 * newsletter subscriber, with the provider's report, whether or not it changed the status (a
 * complaint after a bounce is still the person's complaint; decision 125). A redelivered event
 * changes nothing.
 */
export async function applyMailgunEvent(db: Db, event: MailgunWebhook["event-data"]) {
  const email = event.recipient.trim().toLowerCase();
  const effect = effectOf(event);
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(emailEvents)
      .values({ provider: "mailgun", eventId: event.id, event: event.severity ? `${event.event}:${event.severity}` : event.event, email, detail: JSON.stringify(event["delivery-status"] ?? event.reason ?? null).slice(0, 1000) })
      .onConflictDoNothing()
      .returning({ id: emailEvents.id });
    if (!fresh) return { applied: false as const, reason: "duplicate" };
    if (!effect) return { applied: false as const, reason: "ignored" };
    // A suppression is never undone by a later, weaker event.
    const from = effect.status === "unsubscribed" ? ["active", "pending"] : ["active", "pending", "unsubscribed", "expired"];
    const [subscriber] = await tx
      .select({ id: subscribers.id, status: subscribers.status })
      .from(subscribers)
      .where(and(eq(subscribers.channel, "email"), eq(subscribers.email, email)))
      .for("update");
    if (!subscriber) return { applied: true as const, status: effect.status };
    if (from.includes(subscriber.status)) {
      await tx.update(subscribers).set({ status: effect.status, updatedAt: sql`now()` }).where(eq(subscribers.id, subscriber.id));
    }
    await tx.insert(consentEvents).values({ subscriberId: subscriber.id, channel: "email", action: effect.action, email, source: "mailgun", inboundBody: reportOf(event) });
    return { applied: true as const, status: effect.status };
  });
}
