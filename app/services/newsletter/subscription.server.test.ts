import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, emailMessages, newsletterConfirmations, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { subscribeToNewsletter, type NewsletterInput } from "../subscription/newsletter-sign-up.server";
import {
  confirmationState,
  confirmSubscription,
  expireUnconfirmed,
  preferencesFor,
  resubscribeByToken,
  unsubscribeByToken,
} from "./subscription.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const, siteUrl: "https://news.example" };
const signUp = (email: string): NewsletterInput => ({
  firstName: "Abigail",
  lastName: "Adams",
  email,
  phone: "(212) 456-3001",
  smsConsent: false,
  termsConsent: true,
  evidence: NO_EVIDENCE,
});

describe.each(DB_KINDS)("newsletter confirmed opt-in on %s", (kind) => {
  const database = useTestDatabase(kind);

  /** The token in the confirmation mail sent to the address (the mail is the only place it exists). */
  async function mailedToken(email: string) {
    const mails = await database.db.select().from(emailMessages).where(eq(emailMessages.toAddress, email));
    const mail = mails.filter((row) => row.kind === "newsletter_confirm").at(-1);
    expect(mail?.text).toContain("https://news.example/newsletter/confirm?token=");
    return /token=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
  }
  const statusOf = async (email: string) =>
    (await database.db.select({ status: subscribers.status }).from(subscribers).where(eq(subscribers.email, email)))[0]?.status;

  it("a sign-up is pending and mails a link; looking at the link changes nothing; the POST confirms once", async () => {
    const { db } = database;
    await subscribeToNewsletter(db, signUp("abigail@example.com"), SETTINGS);
    expect(await statusOf("abigail@example.com")).toBe("pending");
    const token = await mailedToken("abigail@example.com");
    // Only the hash is stored.
    expect(await db.select().from(newsletterConfirmations).where(eq(newsletterConfirmations.tokenSha256, token))).toHaveLength(0);

    expect(await confirmationState(db, token)).toEqual({ state: "valid", email: "abigail@example.com" });
    expect(await confirmationState(db, token)).toEqual({ state: "valid", email: "abigail@example.com" });
    expect(await statusOf("abigail@example.com")).toBe("pending");

    const evidence = { ...NO_EVIDENCE, ip: "198.51.100.20", userAgent: "Mozilla/5.0 confirm" };
    expect(await confirmSubscription(db, token, evidence)).toEqual({ ok: true, email: "abigail@example.com", emailToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(await confirmSubscription(db, token, evidence)).toEqual({ ok: false, state: "used" });
    expect(await confirmationState(db, token)).toMatchObject({ state: "used" });

    const [row] = await db.select().from(subscribers).where(eq(subscribers.email, "abigail@example.com"));
    expect(row).toMatchObject({ status: "active" });
    expect(row!.confirmedAt).toBeInstanceOf(Date);
    const events = await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, row!.id));
    expect(events.map((event) => event.action)).toEqual(["email_subscribe", "email_confirm"]);
    expect(events[1]).toMatchObject({ ip: "198.51.100.20", userAgent: "Mozilla/5.0 confirm", source: "confirmation-link" });
  });

  it("an unknown or expired link confirms nothing", async () => {
    const { db } = database;
    expect(await confirmSubscription(db, "x".repeat(43), NO_EVIDENCE)).toEqual({ ok: false, state: "unknown" });
    await subscribeToNewsletter(db, signUp("late@example.com"), SETTINGS);
    const token = await mailedToken("late@example.com");
    await db.execute(sql`UPDATE newsletter_confirmations SET expires_at = now() - interval '1 second'`);
    expect(await confirmationState(db, token)).toMatchObject({ state: "expired" });
    expect(await confirmSubscription(db, token, NO_EVIDENCE)).toEqual({ ok: false, state: "expired" });
    expect(await statusOf("late@example.com")).toBe("pending");
  });

  it("sign-ups never confirmed expire after 7 days; signing up again starts over", async () => {
    const { db } = database;
    await subscribeToNewsletter(db, signUp("never@example.com"), SETTINGS);
    await subscribeToNewsletter(db, signUp("recent@example.com"), SETTINGS);
    await db.execute(sql`UPDATE newsletter_confirmations c SET expires_at = now() - interval '1 hour', created_at = now() - interval '8 days'
      FROM subscribers s WHERE s.id = c.subscriber_id AND s.email = 'never@example.com'`);
    await db.execute(sql`UPDATE subscribers SET updated_at = now() - interval '8 days' WHERE email = 'never@example.com'`);
    expect(await expireUnconfirmed(db)).toBeGreaterThanOrEqual(1);
    expect(await statusOf("never@example.com")).toBe("expired");
    expect(await statusOf("recent@example.com")).toBe("pending");

    expect(await subscribeToNewsletter(db, signUp("never@example.com"), SETTINGS)).toMatchObject({ ok: true, confirmationSent: true });
    expect(await statusOf("never@example.com")).toBe("pending");
    expect(await confirmSubscription(db, await mailedToken("never@example.com"), NO_EVIDENCE)).toMatchObject({ ok: true });
  });

  it("unsubscribes by link token at once and idempotently; the person can come back from the preferences page", async () => {
    const { db } = database;
    await subscribeToNewsletter(db, signUp("leaving@example.com"), SETTINGS);
    await confirmSubscription(db, await mailedToken("leaving@example.com"), NO_EVIDENCE);
    const [row] = await db.select().from(subscribers).where(eq(subscribers.email, "leaving@example.com"));
    const token = row!.emailToken!;

    expect(await unsubscribeByToken(db, token, "one-click", NO_EVIDENCE)).toEqual({ ok: true, changed: true });
    expect(await unsubscribeByToken(db, token, "one-click", NO_EVIDENCE)).toEqual({ ok: true, changed: false });
    expect(await preferencesFor(db, token)).toMatchObject({ email: "leaving@example.com", status: "unsubscribed" });
    expect(await unsubscribeByToken(db, "y".repeat(43), "one-click", NO_EVIDENCE)).toEqual({ ok: false });

    expect(await resubscribeByToken(db, token, NO_EVIDENCE)).toEqual({ ok: true });
    expect(await statusOf("leaving@example.com")).toBe("active");
    const actions = (await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, row!.id))).map((event) => [event.action, event.source]);
    expect(actions).toEqual([
      ["email_subscribe", "newsletter"],
      ["email_confirm", "confirmation-link"],
      ["email_unsubscribe", "one-click"],
      ["email_resubscribe", "preferences"],
    ]);
  });

  it("a suppressed address gets no confirmation mail and cannot be confirmed or resubscribed", async () => {
    const { db } = database;
    await subscribeToNewsletter(db, signUp("bounced@example.com"), SETTINGS);
    const token = await mailedToken("bounced@example.com");
    await db.update(subscribers).set({ status: "bounced" }).where(eq(subscribers.email, "bounced@example.com"));
    expect(await confirmSubscription(db, token, NO_EVIDENCE)).toMatchObject({ ok: false });
    expect(await subscribeToNewsletter(db, signUp("bounced@example.com"), SETTINGS)).toMatchObject({ ok: true, confirmationSent: false });
    const [row] = await db.select().from(subscribers).where(eq(subscribers.email, "bounced@example.com"));
    expect(row!.status).toBe("bounced");
    expect(await resubscribeByToken(db, row!.emailToken!, NO_EVIDENCE)).toEqual({ ok: false });
  });
});
