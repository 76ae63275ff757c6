import { and, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, newsletterConfirmations, subscribers } from "~/db/schema";
import { enqueueEmail } from "../providers/email.server";
import type { RequestEvidence } from "../subscription/evidence";
import { confirmationUrl } from "./links";
import { newLinkToken, tokenSha256 } from "./tokens.server";

export const CONFIRMATION_VALID_DAYS = 7;
/** A second sign-up of the same pending address within this time sends no second mail (no mail bombing). */
const RESEND_AFTER_MINUTES = 15;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type EmailStatus = (typeof subscribers.$inferSelect)["status"];

/** Statuses that block every newsletter mail to the address, including a new confirmation. */
export const SUPPRESSED_EMAIL_STATUSES: EmailStatus[] = ["bounced", "complained"];

export function confirmationEmail(siteName: string, url: string) {
  return {
    subject: `Confirm your ${siteName} newsletter subscription`,
    text:
      `Thank you for signing up for the ${siteName} newsletter.\n\n` +
      `Please confirm that this is your address by opening this link and pressing “Confirm my subscription”:\n\n${url}\n\n` +
      `The link is valid for ${CONFIRMATION_VALID_DAYS} days. If you did not sign up, ignore this e-mail: you will not hear from us again.\n`,
  };
}

/**
 * Within the sign-up's transaction: a pending address gets a confirmation link (a new one unless
 * one was sent in the last minutes). Active and suppressed addresses get nothing.
 */
export async function requestConfirmation(
  tx: Tx,
  subscriber: { id: string; email: string; status: EmailStatus },
  settings: { siteName: string; siteUrl: string },
) {
  if (subscriber.status !== "pending") return false;
  const recent = await tx
    .select({ createdAt: newsletterConfirmations.createdAt })
    .from(newsletterConfirmations)
    .where(
      and(
        eq(newsletterConfirmations.subscriberId, subscriber.id),
        isNull(newsletterConfirmations.usedAt),
        gt(newsletterConfirmations.createdAt, sql`now() - make_interval(mins => ${RESEND_AFTER_MINUTES})`),
      ),
    )
    .limit(1);
  if (recent.length > 0) return false;
  const token = newLinkToken();
  await tx.insert(newsletterConfirmations).values({
    tokenSha256: tokenSha256(token),
    subscriberId: subscriber.id,
    expiresAt: sql`now() + make_interval(days => ${CONFIRMATION_VALID_DAYS})`,
  });
  await enqueueEmail(tx, { to: subscriber.email, kind: "newsletter_confirm", ...confirmationEmail(settings.siteName, confirmationUrl(settings.siteUrl, token)) });
  return true;
}

export type ConfirmationState = "valid" | "used" | "expired" | "unknown";

/** What a confirmation link is, without changing anything (a GET, which mail scanners follow). */
export async function confirmationState(db: Db, token: string): Promise<{ state: ConfirmationState; email?: string }> {
  const [row] = await db
    .select({ usedAt: newsletterConfirmations.usedAt, expiresAt: newsletterConfirmations.expiresAt, email: subscribers.email })
    .from(newsletterConfirmations)
    .innerJoin(subscribers, eq(subscribers.id, newsletterConfirmations.subscriberId))
    .where(eq(newsletterConfirmations.tokenSha256, tokenSha256(token)));
  if (!row) return { state: "unknown" };
  if (row.usedAt) return { state: "used", email: row.email ?? undefined };
  if (row.expiresAt.getTime() <= Date.now()) return { state: "expired", email: row.email ?? undefined };
  return { state: "valid", email: row.email ?? undefined };
}

export type ConfirmResult = { ok: true; email: string; emailToken: string } | { ok: false; state: Exclude<ConfirmationState, "valid"> };

/**
 * The POST of the confirmation page: uses the token once and makes the subscription active, with
 * the confirmation recorded as consent evidence (who, when, from where).
 */
/** `servedPageSha256`: the confirmation page as it was sent, kept in served_pages (decision 080). */
export async function confirmSubscription(db: Db, token: string, evidence: RequestEvidence, servedPageSha256: string | null = null): Promise<ConfirmResult> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(newsletterConfirmations)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(newsletterConfirmations.tokenSha256, tokenSha256(token)),
          isNull(newsletterConfirmations.usedAt),
          gt(newsletterConfirmations.expiresAt, sql`now()`),
        ),
      )
      .returning({ subscriberId: newsletterConfirmations.subscriberId });
    if (!used) {
      const [row] = await tx
        .select({ usedAt: newsletterConfirmations.usedAt })
        .from(newsletterConfirmations)
        .where(eq(newsletterConfirmations.tokenSha256, tokenSha256(token)));
      return { ok: false as const, state: !row ? "unknown" : row.usedAt ? "used" : "expired" };
    }
    const [subscriber] = await tx
      .update(subscribers)
      .set({ status: "active", confirmedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(subscribers.id, used.subscriberId), inArray(subscribers.status, ["pending", "expired", "unsubscribed", "active"])))
      .returning({ id: subscribers.id, email: subscribers.email, firstName: subscribers.firstName, lastName: subscribers.lastName, emailToken: subscribers.emailToken });
    // A suppressed address (bounced, complained) stays suppressed; the token is spent all the same.
    if (!subscriber) return { ok: false as const, state: "used" };
    await tx.insert(consentEvents).values({
      subscriberId: subscriber.id,
      channel: "email",
      action: "email_confirm",
      email: subscriber.email,
      firstName: subscriber.firstName,
      lastName: subscriber.lastName,
      source: "confirmation-link",
      ...evidence,
      servedPageSha256,
    });
    return { ok: true as const, email: subscriber.email!, emailToken: subscriber.emailToken! };
  });
}

export type PreferencesView = { email: string; status: EmailStatus; firstName: string } | null;

export async function preferencesFor(db: Db, token: string): Promise<PreferencesView> {
  const [row] = await db
    .select({ email: subscribers.email, status: subscribers.status, firstName: subscribers.firstName })
    .from(subscribers)
    .where(and(eq(subscribers.channel, "email"), eq(subscribers.emailToken, token)));
  return row ? { email: row.email!, status: row.status, firstName: row.firstName } : null;
}

export type UnsubscribeVia = "one-click" | "preferences" | "admin" | "provider";

/**
 * Unsubscribes the address behind a link token at once (idempotent). Recorded as consent evidence
 * with how it was asked for.
 */
export async function unsubscribeByToken(db: Db, token: string, via: UnsubscribeVia, evidence: RequestEvidence) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({ status: "unsubscribed", updatedAt: sql`now()` })
      .where(and(eq(subscribers.channel, "email"), eq(subscribers.emailToken, token), inArray(subscribers.status, ["active", "pending"])))
      .returning({ id: subscribers.id, email: subscribers.email });
    if (row) {
      await tx.insert(consentEvents).values({ subscriberId: row.id, channel: "email", action: "email_unsubscribe", email: row.email, source: via, ...evidence });
      return { ok: true as const, changed: true };
    }
    const [known] = await tx.select({ id: subscribers.id }).from(subscribers).where(and(eq(subscribers.channel, "email"), eq(subscribers.emailToken, token)));
    return known ? { ok: true as const, changed: false } : { ok: false as const };
  });
}

/**
 * "Come back" from the preferences page. The link came to the inbox, so it proves the address:
 * the subscription is active again at once. Suppressed addresses stay suppressed.
 */
export async function resubscribeByToken(db: Db, token: string, evidence: RequestEvidence) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({ status: "active", confirmedAt: sql`coalesce(${subscribers.confirmedAt}, now())`, updatedAt: sql`now()` })
      .where(and(eq(subscribers.channel, "email"), eq(subscribers.emailToken, token), inArray(subscribers.status, ["unsubscribed", "expired", "pending"])))
      .returning({ id: subscribers.id, email: subscribers.email });
    if (!row) return { ok: false as const };
    await tx.insert(consentEvents).values({ subscriberId: row.id, channel: "email", action: "email_resubscribe", email: row.email, source: "preferences", ...evidence });
    return { ok: true as const };
  });
}

/** Sign-ups never confirmed within the link's lifetime expire (the job loop calls this). */
export async function expireUnconfirmed(db: Db) {
  const expired = await db
    .update(subscribers)
    .set({ status: "expired", updatedAt: sql`now()` })
    .where(
      and(
        eq(subscribers.channel, "email"),
        eq(subscribers.status, "pending"),
        lt(subscribers.updatedAt, sql`now() - make_interval(days => ${CONFIRMATION_VALID_DAYS})`),
        sql`NOT EXISTS (SELECT 1 FROM newsletter_confirmations c WHERE c.subscriber_id = ${subscribers.id} AND c.used_at IS NULL AND c.expires_at > now())`,
      ),
    )
    .returning({ id: subscribers.id });
  return expired.length;
}
