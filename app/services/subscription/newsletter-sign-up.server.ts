import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, subscribers } from "~/db/schema";
import { checkUsMobile } from "~/lib/phone";
import { consentTexts } from "./consent.server";
import type { RequestEvidence } from "./evidence";
import type { Interaction } from "~/lib/interaction";
import { optInToSms, type SmsOptInResult, type SmsOptInSettings } from "./sms-opt-in.server";
import { requestConfirmation } from "../newsletter/subscription.server";
import { newLinkToken } from "../newsletter/tokens.server";
import { insertAttribution, resolveAttribution } from "./attribution.server";

export type NewsletterInput = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  smsConsent: boolean;
  termsConsent: boolean;
  evidence: RequestEvidence;
  /** What the person did on the form, where its JavaScript ran (decision 077). */
  interaction?: Interaction | null;
  /** The document the form was served in, kept in served_pages (decision 079). */
  servedPageSha256?: string | null;
  /** The request sent Sec-GPC: 1 (Global Privacy Control), kept with the attribution (decision 153). */
  gpc?: boolean;
};

export type NewsletterResult =
  | { ok: false; code: "terms_consent_required" }
  | { ok: false; code: "invalid_phone"; message: string }
  | { ok: true; sms: SmsOptInResult | null; confirmationSent: boolean };

/**
 * A newsletter sign-up: the e-mail subscription is stored (idempotent by address) with its
 * consent evidence, as pending until the person confirms the address from the e-mail we send
 * (confirmed opt-in). An active subscription stays active; a bounced or complaining address stays
 * suppressed. When the SMS box is ticked the phone goes through the SMS opt-in as well.
 */
export async function subscribeToNewsletter(
  db: Db,
  input: NewsletterInput,
  settings: SmsOptInSettings & { siteUrl: string },
): Promise<NewsletterResult> {
  if (!input.termsConsent) return { ok: false, code: "terms_consent_required" };
  if (input.smsConsent) {
    // Let the person fix a number that can never get texts before anything is stored.
    const phone = checkUsMobile(input.phone);
    if (!phone.ok) return { ok: false, code: "invalid_phone", message: phone.message };
  }
  const email = input.email.trim().toLowerCase();
  const texts = consentTexts(settings.siteName);
  // Found once for both subscriptions the form may start (e-mail and SMS).
  const attribution = await resolveAttribution(input.evidence, settings.visits);

  const confirmationSent = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: subscribers.status })
      .from(subscribers)
      .where(and(eq(subscribers.channel, "email"), eq(subscribers.email, email)))
      .for("update");
    const [row] = await tx
      .insert(subscribers)
      .values({
        channel: "email",
        email,
        phoneRaw: input.phone,
        firstName: input.firstName,
        lastName: input.lastName,
        status: "pending",
        source: "newsletter",
        emailToken: newLinkToken(),
      })
      .onConflictDoUpdate({
        target: subscribers.email,
        targetWhere: sql`${subscribers.channel} = 'email'`,
        set: {
          // Signing up again re-opens an ended subscription for confirmation; active and
          // suppressed (bounced, complained) addresses keep their status.
          status: sql`CASE WHEN ${subscribers.status} IN ('unsubscribed', 'expired') THEN 'pending' ELSE ${subscribers.status} END`,
          emailToken: sql`coalesce(${subscribers.emailToken}, excluded.email_token)`,
          firstName: input.firstName,
          lastName: input.lastName,
          phoneRaw: input.phone,
          updatedAt: sql`now()`,
        },
      })
      // xmax = 0: this statement inserted the row (not another sign-up of the same address at once).
      .returning({ id: subscribers.id, status: subscribers.status, inserted: sql<boolean>`(xmax = 0)` });
    const [event] = await tx.insert(consentEvents).values({
      subscriberId: row!.id,
      channel: "email",
      action: "email_subscribe",
      email,
      phoneRaw: input.phone,
      firstName: input.firstName,
      lastName: input.lastName,
      termsText: texts.termsText,
      termsVersion: texts.termsVersion,
      smsCheckbox: input.smsConsent,
      termsCheckbox: input.termsConsent,
      source: "newsletter",
      ...input.evidence,
      interaction: input.interaction ?? null,
      servedPageSha256: input.servedPageSha256 ?? null,
    }).returning({ id: consentEvents.id });
    // A sign-up starts a subscription when the address is new or its subscription had ended; a
    // repeat while pending or active, or a suppressed address, is not another sign-up.
    const started = before ? before.status === "unsubscribed" || before.status === "expired" : row!.inserted;
    if (started) await insertAttribution(tx, row!.id, event!.id, "email", attribution, input.gpc === true);
    return requestConfirmation(tx, { id: row!.id, email, status: row!.status }, settings);
  });

  const sms = input.smsConsent
    ? await optInToSms(
        db,
        {
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          smsConsent: true,
          termsConsent: true,
          source: "newsletter",
          evidence: input.evidence,
          interaction: input.interaction,
          servedPageSha256: input.servedPageSha256,
          attribution,
          gpc: input.gpc === true,
        },
        settings,
      )
    : null;
  return { ok: true, sms, confirmationSent };
}
