import type { Db } from "~/db/client.server";
import { campaignRecipients, consentEvents, subscribers, subscriptionAttributions } from "~/db/schema";

// A fixture of sign-ups with known fates, shared by the sign-up report tests and the lists they link to (decisions 150, 157).

// "Now" for the report: 2026-03-31 12:00 in New York. The range: February and March, local days.
export const NOW = new Date("2026-03-31T16:00:00Z");
export const RANGE = { from: "2026-02-01", to: "2026-03-31" };
const at = (iso: string) => new Date(iso);

export type Origin = { formPath: string; visitChannel: string; utmSource?: string; utmMedium?: string; utmCampaign?: string; sub1?: string; sub2?: string };
type Event = { action: (typeof consentEvents.$inferInsert)["action"]; at: string };

/**
 * One sign-up as the services leave it: the consent event that started it (with a "Reply Y"
 * text when double opt-in asked for one), its attribution at the same instant, and what the
 * person did afterwards, each at a known time.
 */
export async function signUp(db: Db, subscriberId: string, channel: "sms" | "email", when: string, origin: Origin, later: Event[] = [], doubleOptIn = false) {
  const [event] = await db
    .insert(consentEvents)
    .values({ subscriberId, channel, action: channel === "sms" ? "opt_in" : "email_subscribe", occurredAt: at(when) })
    .returning({ id: consentEvents.id });
  if (doubleOptIn) await db.insert(campaignRecipients).values({ address: "+12125550000", kind: "doi_request", body: "Reply Y", subscriberId, consentEventId: event!.id });
  await db.insert(subscriptionAttributions).values({ subscriberId, consentEventId: event!.id, channel, basis: "visit", createdAt: at(when), ...origin });
  for (const next of later) await db.insert(consentEvents).values({ subscriberId, channel, action: next.action, occurredAt: at(next.at) });
}

export async function subscriber(db: Db, channel: "sms" | "email", n: number) {
  const identity = channel === "sms" ? { phoneE164: `+1212555${String(n).padStart(4, "0")}` } : { email: `reader${n}@example.com` };
  const [row] = await db.insert(subscribers).values({ channel, ...identity, firstName: "A", lastName: "B", status: "active", source: channel === "sms" ? "opt-in" : "newsletter" }).returning({ id: subscribers.id });
  return row!.id;
}

const GOLD = { formPath: "/articles/gold", visitChannel: "search" };
const SPRING = { formPath: "/opt-in", visitChannel: "paid", utmSource: "newsmax", utmMedium: "cpc", utmCampaign: "spring" };

export async function fixture(db: Db) {
  // Outside the range: in January, and 23:30 on January 31 in New York (04:30 UTC on February 1).
  await signUp(db, await subscriber(db, "email", 90), "email", "2026-01-20T15:00:00Z", GOLD, [{ action: "email_confirm", at: "2026-01-20T15:05:00Z" }]);
  await signUp(db, await subscriber(db, "email", 91), "email", "2026-02-01T04:30:00Z", GOLD, [{ action: "email_confirm", at: "2026-02-01T04:35:00Z" }]);

  // E-mail from an article: confirmed and stays; confirmed and unsubscribes on day 2; never confirms (then signs up again and confirms).
  await signUp(db, await subscriber(db, "email", 1), "email", "2026-02-10T15:00:00Z", GOLD, [{ action: "email_confirm", at: "2026-02-10T15:10:00Z" }]);
  await signUp(db, await subscriber(db, "email", 2), "email", "2026-02-12T15:00:00Z", GOLD, [
    { action: "email_confirm", at: "2026-02-12T15:10:00Z" },
    { action: "email_unsubscribe", at: "2026-02-14T09:00:00Z" },
  ]);
  const e3 = await subscriber(db, "email", 3);
  await signUp(db, e3, "email", "2026-02-15T15:00:00Z", GOLD);
  // Its confirmation belongs to the second sign-up only.
  await signUp(db, e3, "email", "2026-03-20T15:00:00Z", { formPath: "/articles/silver", visitChannel: "search" }, [{ action: "email_confirm", at: "2026-03-20T15:30:00Z" }]);
  // Home page, direct, three days old: confirmed, too young for the 7-day figures.
  await signUp(db, await subscriber(db, "email", 4), "email", "2026-03-28T15:00:00Z", { formPath: "/", visitChannel: "direct" }, [{ action: "email_confirm", at: "2026-03-28T15:02:00Z" }]);

  // SMS from the ad landing page, sub2 AFF1: single opt-in, STOP on day 18 (then back via another campaign);
  // double opt-in confirmed, STOP the next day.
  const s1 = await subscriber(db, "sms", 1);
  await signUp(db, s1, "sms", "2026-02-20T15:00:00Z", { ...SPRING, sub2: "AFF1" }, [{ action: "opt_out", at: "2026-03-10T15:00:00Z" }]);
  await signUp(db, await subscriber(db, "sms", 2), "sms", "2026-02-21T15:00:00Z", { ...SPRING, sub2: "AFF1" }, [
    { action: "doi_confirmed", at: "2026-02-21T15:01:00Z" },
    { action: "opt_out", at: "2026-02-22T15:00:00Z" },
  ], true);
  // sub2 AFF2: a "Reply Y" never answered; and s1 back, six days ago, from the summer campaign.
  await signUp(db, await subscriber(db, "sms", 3), "sms", "2026-02-27T15:00:00Z", { ...SPRING, sub2: "AFF2" }, [{ action: "doi_expired", at: "2026-03-01T15:00:00Z" }], true);
  await signUp(db, s1, "sms", "2026-03-25T15:00:00Z", { ...SPRING, utmCampaign: "summer", sub2: "AFF2" });
}
