import type { Db } from "~/db/client.server";
import { campaignRecipients } from "~/db/schema";
import type { SmsTransport } from "~/services/providers/sms-transport.server";
import { drainCampaigns } from "~/services/sending/engine.server";
import { createSmsChannel } from "~/services/sending/sms-channel.server";

/**
 * Texts of their own (welcomes, replies, codes, tests) live in the send engine's ledger
 * (decision 068). Tests read them under the old outbox's names: `texts.toPhone`, `status`.
 */
export const texts = {
  id: campaignRecipients.id,
  toPhone: campaignRecipients.address,
  kind: campaignRecipients.kind,
  dedupeKey: campaignRecipients.dedupeKey,
};

export function selectTexts(db: Pick<Db, "select">) {
  const r = campaignRecipients;
  return db
    .select({
      id: r.id,
      toPhone: r.address,
      body: r.body,
      kind: r.kind,
      status: r.state,
      reason: r.reason,
      attempts: r.attempts,
      dedupeKey: r.dedupeKey,
      subscriberId: r.subscriberId,
      providerId: r.providerId,
      providerStatus: r.providerStatus,
      error: r.error,
      nextAttemptAt: r.nextAttemptAt,
      createdAt: r.createdAt,
      sentAt: r.sentAt,
    })
    .from(r);
}

/**
 * Runs the SMS send engine once over everything due (texts of their own and running campaigns)
 * with a transport that accepts every text; returns what went out.
 */
export async function sendQueuedTexts(db: Db) {
  const sent: { to: string; body: string }[] = [];
  const transport: SmsTransport = {
    name: "log",
    async send(message) {
      sent.push({ to: message.to, body: message.body });
      return { ok: true, providerId: `SM-test-${message.id}`, providerStatus: "queued" };
    },
  };
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  await drainCampaigns({ db, channel: createSmsChannel({ transport, ratePerSecond: 1000, dncPolicy: "refuse" }), logger: quiet, siteUrl: "https://www.example.com", dncPolicy: "refuse" });
  return sent;
}
