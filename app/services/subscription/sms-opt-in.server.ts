import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, conversionPostbacks, subscribers, subscriptionAttributions } from "~/db/schema";
import { checkUsMobile } from "~/lib/phone";
import { consentTexts } from "./consent.server";
import { lookupDnc } from "../dnc/dnc.server";
import type { Interaction } from "~/lib/interaction";
import type { RequestEvidence } from "./evidence";
import { enqueueSms } from "../sending/outbox.server";
import { nudgeTexts } from "../sending/signal.server";
import { getWelcomeConfig } from "./sms-config.server";
import { rowSql } from "~/db/sql-values.server";
import { SMS_CONFIG_ID } from "~/db/seed.server";
import { confirmByFrom, doubleOptInRequest } from "./double-opt-in.server";
import { enqueuePostback, nudgePostbacks, postbackRow, postbackToSend, type PostbackRow } from "./conversion-postback.server";
import { attributionColumns, insertAttribution, resolveAttribution } from "./attribution.server";
import type { Attribution } from "../analytics/attribution";
import type { VisitLookup } from "../analytics/visit-lookup.server";

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
  /** What the person did on the form, where its JavaScript ran (decision 077). */
  interaction?: Interaction | null;
  /** The document the form was served in, kept in served_pages (decision 079). */
  servedPageSha256?: string | null;
  /** Where the sign-up came from, when the caller already knows (the newsletter form); else found from the evidence. */
  attribution?: Attribution;
  /** The request sent Sec-GPC: 1 (Global Privacy Control); kept with the attribution (decision 153). */
  gpc?: boolean;
};

export type SmsOptInSettings = {
  siteName: string;
  dncPolicy: DncPolicy;
  /** SMS_DOUBLE_OPT_IN: the subscription waits for a "Y" reply before it is active. */
  doubleOptIn?: boolean;
  /** CONVERSION_POSTBACK_URL: a conversion call is queued for opt-ins that carry a click id. */
  postbackUrl?: string | null;
  /** CONVERSION_POSTBACK_AD_PLATFORM: the postback feeds an ad platform, so none is sent under GPC (absent: yes). */
  postbackAdPlatform?: boolean;
  /** The clock (tests fix it); the database's own now() still stamps the rows. */
  now?: () => Date;
  /** Finds the visit a sign-up came from (decision 149); without it only the form's page address tells. */
  visits?: VisitLookup;
};

export type SmsOptInResult =
  | { ok: true; subscriberId: string; created: boolean; pending: boolean }
  | { ok: false; code: "terms_consent_required" | "sms_consent_required" }
  | { ok: false; code: "invalid_phone"; message: string }
  | { ok: false; code: "dnc" };

/**
 * A web opt-in to SMS alerts. Idempotent by phone number: a repeat or a double click answers the
 * same success and queues no second welcome. On success the subscriber, the consent evidence,
 * the first text and the conversion postback are written in one transaction, so none exists
 * without the others. With double opt-in the subscriber is `pending` and the first text asks for
 * a "Y" (COMPLIANCE.md 1.4); the welcome and the postback wait for that reply.
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
    interaction: input.interaction ?? null,
    servedPageSha256: input.servedPageSha256 ?? null,
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

  const now = settings.now?.() ?? new Date();
  const doubleOptIn = settings.doubleOptIn === true;
  const confirmBy = doubleOptIn ? confirmByFrom(now) : null;
  const firstText = doubleOptIn ? { kind: "doi_request" as const, body: doubleOptInRequest(settings.siteName) } : { kind: "welcome" as const, body: null };
  const subscriberValues = {
    channel: "sms" as const,
    phoneE164: phone.e164,
    firstName: input.firstName,
    lastName: input.lastName,
    status: doubleOptIn ? ("pending" as const) : ("active" as const),
    source: input.source,
    clickId: input.clickId ?? null,
    confirmBy,
  };
  const eventValues = { channel: "sms" as const, action: "opt_in" as const, ...evidence };
  const attribution = input.attribution ?? (await resolveAttribution(input.evidence, settings.visits));
  // With double opt-in the conversion is the confirmation (only confirmed numbers are subscribers).
  const gpc = input.gpc === true;
  const postback = doubleOptIn ? null : postbackRow(settings.postbackUrl, { clickId: input.clickId, event: "opt_in", at: now, gpc }, settings.postbackAdPlatform ?? true);

  // A new number (the usual case): subscriber, consent event, first text and postback in one
  // statement, which PostgreSQL runs atomically; the welcome text is read from sms_config in it.
  const fresh = await insertNewSmsSubscriber(db, phone.e164, subscriberValues, eventValues, firstText, postback, attributionColumns(attribution, "sms", gpc));
  if (fresh) {
    nudgeTexts();
    if (fresh.postback) nudgePostbacks();
    return { ok: true, subscriberId: fresh.id, created: true, pending: doubleOptIn };
  }

  const result = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: subscribers.id, status: subscribers.status })
      .from(subscribers)
      .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, phone.e164)))
      .for("update");
    if (!existing) throw new Error("subscriber vanished during opt-in");
    // Already subscribed (or already asked to confirm): the same success, no second consent
    // event, no second text; a repeated request for a "Y" would be the reminder 1.4 rules out.
    if (existing.status === "active") return { subscriberId: existing.id, queued: false, postback: false, pending: false };
    if (existing.status === "pending") return { subscriberId: existing.id, queued: false, postback: false, pending: true };
    await tx
      .update(subscribers)
      .set({
        status: subscriberValues.status,
        firstName: input.firstName,
        lastName: input.lastName,
        clickId: input.clickId ?? null,
        confirmBy,
        updatedAt: sql`now()`,
      })
      .where(eq(subscribers.id, existing.id));
    const [event] = await tx
      .insert(consentEvents)
      .values({ subscriberId: existing.id, ...eventValues })
      .returning({ id: consentEvents.id });
    // Opted in again after a STOP or an expiry: a new sign-up, with its own origin.
    await insertAttribution(tx, existing.id, event!.id, "sms", attribution, gpc);
    const body = firstText.body ?? (await getWelcomeConfig(tx)).welcomeMessage;
    await enqueueSms(tx, {
      toPhone: phone.e164,
      body,
      kind: firstText.kind,
      dedupeKey: `${firstText.kind === "welcome" ? "welcome" : "doi"}:${event!.id}`,
      subscriberId: existing.id,
      consentEventId: event!.id,
    });
    const postbackQueued = await enqueuePostback(tx, existing.id, postback);
    return { subscriberId: existing.id, queued: true, postback: postbackQueued, pending: doubleOptIn };
  });

  if (result.queued) nudgeTexts();
  if (result.postback) nudgePostbacks();
  return { ok: true, subscriberId: result.subscriberId, created: false, pending: result.pending };
}

/**
 * Inserts subscriber, consent event, first text (the welcome, or the request for a "Y"), the
 * sign-up's attribution and the postback together; null when the number already exists. The
 * postback row's subscriber id is filled in from the inserted subscriber.
 */
async function insertNewSmsSubscriber(
  db: Db,
  e164: string,
  subscriber: typeof subscribers.$inferInsert,
  event: Omit<typeof consentEvents.$inferInsert, "subscriberId">,
  firstText: { kind: "welcome" | "doi_request"; body: string | null },
  postback: PostbackRow | null,
  attribution: ReturnType<typeof attributionColumns>,
) {
  const s = rowSql(subscribers, subscriber);
  const e = rowSql(consentEvents, event);
  const a = rowSql(subscriptionAttributions, attribution);
  const message =
    firstText.kind === "welcome"
      ? sql`SELECT ${e164}, c.welcome_message, 'welcome', 'welcome:' || e.id, e.subscriber_id, e.id
            FROM e CROSS JOIN sms_config c WHERE c.id = ${SMS_CONFIG_ID}`
      : sql`SELECT ${e164}, ${firstText.body}, 'doi_request', 'doi:' || e.id, e.subscriber_id, e.id FROM e`;
  const p = postback ? rowSql(conversionPostbacks, postback) : null;
  const postbackCte = p
    ? sql`, p AS (
      INSERT INTO conversion_postbacks (subscriber_id, ${p.columns}) SELECT s.id, ${p.values} FROM s
      RETURNING id
    )`
    : sql``;
  const result = await db.execute<{ subscriber_id: string | null }>(sql`
    WITH s AS (
      INSERT INTO subscribers (${s.columns}) VALUES (${s.values})
      ON CONFLICT (phone_e164) WHERE channel = 'sms' DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO consent_events (subscriber_id, ${e.columns}) SELECT s.id, ${e.values} FROM s
      RETURNING id, subscriber_id
    ), a AS (
      INSERT INTO subscription_attributions (subscriber_id, consent_event_id, ${a.columns}) SELECT e.subscriber_id, e.id, ${a.values} FROM e
    ), m AS (
      INSERT INTO campaign_recipients (address, body, kind, dedupe_key, subscriber_id, consent_event_id)
      ${message}
      RETURNING id
    )${postbackCte}
    SELECT (SELECT id FROM s) AS subscriber_id, (SELECT id FROM m) AS message_id`);
  const id = result.rows[0]?.subscriber_id ?? null;
  return id ? { id, postback: postbackToSend(postback) } : null;
}
