import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, subscribers } from "~/db/schema";
import { checkUsMobile } from "~/lib/phone";
import { consentTexts } from "./consent.server";
import { lookupDnc } from "./dnc.server";
import type { RequestEvidence } from "./evidence";
import { enqueueSms } from "./outbox.server";
import { nudgeOutbox } from "./outbox-signal.server";
import { getWelcomeConfig } from "./sms-config.server";
import { rowSql } from "~/db/sql-values.server";
import { SMS_CONFIG_ID } from "~/db/seed.server";

export type DncPolicy = "refuse" | "allow_with_consent";

export type SmsOptInInput = {
  firstName: string;
  lastName: string;
  phone: string;
  clickId?: string | null;
  smsConsent: boolean;
  termsConsent: boolean;
  source: "opt-in" | "newsletter";
  evidence: RequestEvidence;
};

export type SmsOptInSettings = { siteName: string; dncPolicy: DncPolicy };

export type SmsOptInResult =
  | { ok: true; subscriberId: string; created: boolean }
  | { ok: false; code: "terms_consent_required" | "sms_consent_required" }
  | { ok: false; code: "invalid_phone"; message: string }
  | { ok: false; code: "dnc" };

/**
 * A web opt-in to SMS alerts. Idempotent by phone number: a repeat or a double click answers the
 * same success and queues no second welcome. On success the subscriber, the consent evidence and
 * the welcome text are written in one transaction, so none exists without the others.
 */
export async function optInToSms(db: Db, input: SmsOptInInput, settings: SmsOptInSettings): Promise<SmsOptInResult> {
  if (!input.termsConsent) return { ok: false, code: "terms_consent_required" };
  if (!input.smsConsent) return { ok: false, code: "sms_consent_required" };
  const phone = checkUsMobile(input.phone);
  if (!phone.ok) return { ok: false, code: "invalid_phone", message: phone.message };

  const dnc = await lookupDnc(db, phone.national);
  const refused = dnc.internal || (dnc.federal && settings.dncPolicy === "refuse");
  const texts = consentTexts(settings.siteName);
  const evidence = {
    phoneE164: phone.e164,
    phoneRaw: input.phone,
    firstName: input.firstName,
    lastName: input.lastName,
    ...texts,
    smsCheckbox: input.smsConsent,
    termsCheckbox: input.termsConsent,
    ...input.evidence,
    clickId: input.clickId ?? null,
    source: input.source,
    dncPolicy: settings.dncPolicy,
    dncResult: dnc.internal ? "internal" : dnc.federal ? "federal" : "clear",
    dncDataDate: dnc.dataDate,
  };

  if (refused) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(subscribers)
        .values({
          channel: "sms",
          phoneE164: phone.e164,
          firstName: input.firstName,
          lastName: input.lastName,
          status: "refused_dnc",
          source: input.source,
          clickId: input.clickId ?? null,
        })
        .onConflictDoUpdate({
          target: subscribers.phoneE164,
          targetWhere: sql`${subscribers.channel} = 'sms'`,
          set: { updatedAt: sql`now()` },
        })
        .returning({ id: subscribers.id });
      // The refusal is evidence too: it shows the check ran and which data it used.
      await tx.insert(consentEvents).values({ subscriberId: row!.id, channel: "sms", action: "refused_dnc", ...evidence });
    });
    return { ok: false, code: "dnc" };
  }

  const subscriberValues = {
    channel: "sms" as const,
    phoneE164: phone.e164,
    firstName: input.firstName,
    lastName: input.lastName,
    status: "active" as const,
    source: input.source,
    clickId: input.clickId ?? null,
  };
  const eventValues = { channel: "sms" as const, action: "opt_in" as const, ...evidence };

  // A new number (the usual case): subscriber, consent event and welcome text in one statement,
  // which PostgreSQL runs atomically; the welcome text is read from sms_config in the same statement.
  const fresh = await insertNewSmsSubscriber(db, phone.e164, subscriberValues, eventValues);
  if (fresh) {
    nudgeOutbox();
    return { ok: true, subscriberId: fresh, created: true };
  }

  const result = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: subscribers.id, status: subscribers.status })
      .from(subscribers)
      .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, phone.e164)))
      .for("update");
    if (!existing) throw new Error("subscriber vanished during opt-in");
    // Already subscribed: the same success, no second consent event, no second welcome.
    if (existing.status === "active") return { subscriberId: existing.id, queued: false };
    await tx
      .update(subscribers)
      .set({ status: "active", firstName: input.firstName, lastName: input.lastName, clickId: input.clickId ?? null, updatedAt: sql`now()` })
      .where(eq(subscribers.id, existing.id));
    const [event] = await tx
      .insert(consentEvents)
      .values({ subscriberId: existing.id, ...eventValues })
      .returning({ id: consentEvents.id });
    const welcome = await getWelcomeConfig(tx);
    await enqueueSms(tx, {
      toPhone: phone.e164,
      body: welcome.welcomeMessage,
      kind: "welcome",
      dedupeKey: `welcome:${event!.id}`,
      subscriberId: existing.id,
    });
    return { subscriberId: existing.id, queued: true };
  });

  if (result.queued) nudgeOutbox();
  return { ok: true, subscriberId: result.subscriberId, created: false };
}

/** Inserts subscriber, consent event and welcome text together; null when the number already exists. */
async function insertNewSmsSubscriber(
  db: Db,
  e164: string,
  subscriber: typeof subscribers.$inferInsert,
  event: Omit<typeof consentEvents.$inferInsert, "subscriberId">,
) {
  const s = rowSql(subscribers, subscriber);
  const e = rowSql(consentEvents, event);
  const result = await db.execute<{ subscriber_id: string | null }>(sql`
    WITH s AS (
      INSERT INTO subscribers (${s.columns}) VALUES (${s.values})
      ON CONFLICT (phone_e164) WHERE channel = 'sms' DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO consent_events (subscriber_id, ${e.columns}) SELECT s.id, ${e.values} FROM s
      RETURNING id, subscriber_id
    ), m AS (
      INSERT INTO sms_messages (to_phone, body, kind, dedupe_key, subscriber_id)
      SELECT ${e164}, c.welcome_message, 'welcome', 'welcome:' || e.id, e.subscriber_id
      FROM e CROSS JOIN sms_config c WHERE c.id = ${SMS_CONFIG_ID}
      RETURNING id
    )
    SELECT (SELECT id FROM s) AS subscriber_id, (SELECT id FROM m) AS message_id`);
  return result.rows[0]?.subscriber_id ?? null;
}
