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

  const result = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(subscribers)
      .values({
        channel: "sms",
        phoneE164: phone.e164,
        firstName: input.firstName,
        lastName: input.lastName,
        status: "active",
        source: input.source,
        clickId: input.clickId ?? null,
      })
      .onConflictDoNothing({ target: subscribers.phoneE164, where: sql`${subscribers.channel} = 'sms'` })
      .returning({ id: subscribers.id });

    let subscriberId = inserted[0]?.id;
    const created = Boolean(subscriberId);
    if (!subscriberId) {
      const [existing] = await tx
        .select({ id: subscribers.id, status: subscribers.status })
        .from(subscribers)
        .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, phone.e164)))
        .for("update");
      if (!existing) throw new Error("subscriber vanished during opt-in");
      if (existing.status === "active") return { subscriberId: existing.id, created: false, queued: false };
      subscriberId = existing.id;
      await tx
        .update(subscribers)
        .set({
          status: "active",
          firstName: input.firstName,
          lastName: input.lastName,
          clickId: input.clickId ?? null,
          updatedAt: sql`now()`,
        })
        .where(eq(subscribers.id, subscriberId));
    }

    const [event] = await tx
      .insert(consentEvents)
      .values({ subscriberId, channel: "sms", action: "opt_in", ...evidence })
      .returning({ id: consentEvents.id });
    const welcome = await getWelcomeConfig(tx);
    await enqueueSms(tx, {
      toPhone: phone.e164,
      body: welcome.welcomeMessage,
      kind: "welcome",
      dedupeKey: `welcome:${event!.id}`,
      subscriberId,
    });
    return { subscriberId, created, queued: true };
  });

  if (result.queued) nudgeOutbox();
  return { ok: true, subscriberId: result.subscriberId, created: result.created };
}
