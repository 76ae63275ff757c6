import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, session, subscribers, user } from "~/db/schema";
import { addInternalDnc } from "./dnc/dnc.server";
import type { RequestEvidence } from "./subscription/evidence";

/** What the account page knows of the person: only what better-auth has confirmed. */
export type AccountIdentity = { email: string; emailVerified: boolean; phoneE164: string | null };

export type Subscription = { id: string; channel: "sms" | "email"; address: string; status: string; since: string; updatedAt: string };

/**
 * The newsletter row of the verified e-mail address and the SMS row of the phone number confirmed
 * by a texted code. An unverified address or an unconfirmed number matches nothing: a stranger
 * must not see or stop someone else's subscription by typing their address.
 */
async function matchedSubscribers(db: Db, identity: AccountIdentity) {
  const conditions = [];
  if (identity.emailVerified) conditions.push(and(eq(subscribers.channel, "email"), eq(subscribers.email, identity.email.toLowerCase())));
  if (identity.phoneE164) conditions.push(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, identity.phoneE164)));
  if (conditions.length === 0) return [];
  return db
    .select()
    .from(subscribers)
    .where(sql.join(conditions.map((condition) => sql`(${condition})`), sql` OR `));
}

export async function accountSubscriptions(db: Db, identity: AccountIdentity): Promise<Subscription[]> {
  const rows = await matchedSubscribers(db, identity);
  return rows
    .map((row) => ({
      id: row.id,
      channel: row.channel,
      address: row.channel === "sms" ? row.phoneE164! : row.email!,
      status: row.status,
      since: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }))
    .sort((a, b) => a.channel.localeCompare(b.channel));
}

/**
 * The person confirmed by a texted code, on their account page, that they hold this number: on
 * the SMS subscription of that number (if any) this is evidence for its consent that a court will
 * ask about (the subscriber is the number's user), so it is a consent event of its own, sealed in
 * the chain and on the certificate (issue 23's "account phone confirmation"). It changes no
 * status: confirming a number is not opting in. Answers whether a subscription was there.
 */
export async function recordPhoneConfirmed(db: Db, phoneE164: string, evidence: RequestEvidence) {
  const [row] = await db.select({ id: subscribers.id }).from(subscribers).where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, phoneE164)));
  if (!row) return false;
  await db.insert(consentEvents).values({ subscriberId: row.id, channel: "sms", action: "phone_confirmed", phoneE164, source: "account", ...evidence });
  return true;
}

export type StopResult = { ok: true; changed: boolean } | { ok: false; code: "not_found" };

/**
 * Stops one of the person's own subscriptions, with an opt-out event as evidence (consent events
 * are append-only). SMS: the number also goes on our Do-Not-Call list, as a STOP reply does.
 */
export async function stopSubscription(
  db: Db,
  identity: AccountIdentity,
  channel: "sms" | "email",
  evidence: RequestEvidence,
  source: "account" | "account_deleted" = "account",
): Promise<StopResult> {
  const row = (await matchedSubscribers(db, identity)).find((candidate) => candidate.channel === channel);
  if (!row) return { ok: false, code: "not_found" };
  const stopped = channel === "sms" ? "opted_out" : "unsubscribed";
  if (row.status === stopped || row.status === "refused_dnc") return { ok: true, changed: false };
  await db.transaction(async (tx) => {
    await tx.update(subscribers).set({ status: stopped, updatedAt: sql`now()` }).where(eq(subscribers.id, row.id));
    if (channel === "sms") await addInternalDnc(tx, row.phoneE164!.slice(2));
    await tx.insert(consentEvents).values({
      subscriberId: row.id,
      channel,
      action: "opt_out",
      phoneE164: row.phoneE164,
      email: row.email,
      source,
      ...evidence,
    });
  });
  return { ok: true, changed: true };
}

/**
 * A deleted account receives nothing more: both of its subscriptions stop, each an opt-out in the
 * kept consent records (source `account_deleted`), counted on the staff home as opt-outs.
 */
export async function stopSubscriptionsOfDeletedAccount(db: Db, identity: AccountIdentity, evidence: RequestEvidence) {
  for (const channel of ["sms", "email"] as const) await stopSubscription(db, identity, channel, evidence, "account_deleted");
}

/** "Download my data": the account, its sessions, its subscriptions and their consent records. */
export async function accountDataExport(db: Db, userId: string, identity: AccountIdentity) {
  const [account] = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      phoneNumber: user.phoneNumber,
      phoneNumberVerified: user.phoneNumberVerified,
      role: user.role,
      twoFactorEnabled: user.twoFactorEnabled,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    })
    .from(user)
    .where(eq(user.id, userId));
  const sessions = await db
    .select({ createdAt: session.createdAt, updatedAt: session.updatedAt, expiresAt: session.expiresAt, ipAddress: session.ipAddress, userAgent: session.userAgent })
    .from(session)
    .where(eq(session.userId, userId))
    .orderBy(asc(session.createdAt));
  const rows = await matchedSubscribers(db, identity);
  const consent = rows.length
    ? await db
        .select()
        .from(consentEvents)
        .where(inArray(consentEvents.subscriberId, rows.map((row) => row.id)))
        .orderBy(asc(consentEvents.occurredAt), asc(consentEvents.id))
    : [];
  return {
    exportedAt: new Date().toISOString(),
    account: account ?? null,
    sessions,
    subscriptions: rows,
    consentRecords: consent,
  };
}
