import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { campaignRecipients, campaigns, consentEvents, dncNumbers, subscribers } from "~/db/schema";
import { startCampaign } from "../../../tests/support/campaigns";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { createLogTransport, type SendResult, type SentLookup, type SmsTransport } from "../providers/sms-transport.server";
import { countReach, AudienceSchema, type Audience } from "./audience.server";
import { controlCampaign, saveDraft, scheduleCampaign } from "./campaigns.server";
import { drainCampaigns, type EngineOptions } from "./engine.server";
import { recordClick, resolveShortLink, secondsSinceCopySent } from "./links.server";
import { burstFor, takeTokens } from "./rate-bucket.server";
import { campaignResults } from "./results.server";
import { createSmsChannel } from "./sms-channel.server";

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
const SITE = "https://www.example.com";
const site = { name: "Patriot Investor", email: "info@example.com", phone: "1-800-555-0199" };

function fakeProvider(behaviour: (to: string) => SendResult = () => ({ ok: true, providerId: `SM${Math.random()}`, providerStatus: "queued" })) {
  const sent: { to: string; body: string }[] = [];
  const accepted: { to: string; body: string; at: Date; sid: string }[] = [];
  const transport: SmsTransport = {
    name: "twilio",
    async send(message) {
      const result = behaviour(message.to);
      if (result.ok) {
        sent.push({ to: message.to, body: message.body });
        accepted.push({ to: message.to, body: message.body, at: new Date(), sid: result.providerId });
      }
      return result;
    },
    async lookup(query): Promise<SentLookup> {
      const hit = accepted.find((m) => m.to === query.to && m.body === query.body && m.at >= query.since);
      return hit ? { found: true, providerId: hit.sid, providerStatus: "sent" } : { found: false };
    },
  };
  return { transport, sent, accepted };
}

let phoneCounter = 0;
/** A subscriber in the given area code; numbers are unique across the whole file. */
async function subscriber(db: Db, npa: string, extra: Partial<typeof subscribers.$inferInsert> = {}) {
  const line = String(1000 + phoneCounter++).padStart(4, "0");
  const [row] = await db
    .insert(subscribers)
    .values({ channel: "sms", phoneE164: `+1${npa}456${line}`, firstName: "A", lastName: "B", status: "active", source: "opt-in", ...extra })
    .returning();
  return row!;
}

function engine(db: Db, transport: SmsTransport, clock: () => Date, dncPolicy: "refuse" | "allow_with_consent" = "refuse"): EngineOptions {
  return { db, channel: createSmsChannel({ transport, ratePerSecond: 1000, dncPolicy }), logger: quietLogger, siteUrl: SITE, dncPolicy, clock, inDoubtAfterSeconds: 60 };
}


const ledger = (db: Db, campaignId: string) =>
  db
    .select({ address: campaignRecipients.address, state: campaignRecipients.state, reason: campaignRecipients.reason, nextAttemptAt: campaignRecipients.nextAttemptAt, attempts: campaignRecipients.attempts })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));

describe.each(DB_KINDS)("the send engine on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("sends inside each person's window, holds the rest for their morning, and skips the Do-Not-Call lists", async () => {
    const { db } = database;
    const cohort = `quiet-${kind}`;
    const ny = await subscriber(db, "212", { clickId: cohort }); // Eastern, federal hours
    const fl = await subscriber(db, "305", { clickId: cohort }); // Eastern, Florida
    const ct = await subscriber(db, "860", { clickId: cohort }); // Connecticut, from 09:00
    const tx = await subscriber(db, "512", { clickId: cohort }); // Central, Texas from 09:00
    const co = await subscriber(db, "303", { clickId: cohort }); // Mountain
    const ca = await subscriber(db, "213", { clickId: cohort }); // Pacific
    const internal = await subscriber(db, "212", { clickId: cohort });
    const federal = await subscriber(db, "212", { clickId: cohort });
    await db.insert(dncNumbers).values([
      { phone: internal.phoneE164!.slice(2), source: "internal" },
      { phone: federal.phoneE164!.slice(2), source: "federal" },
    ]);
    let now = new Date("2026-11-23T13:30:00Z"); // Monday 08:30 in New York
    const { transport, sent } = fakeProvider();
    const options = engine(db, transport, () => now);
    const reach = await countReach(db, AudienceSchema.parse({ clickId: cohort }), "refuse");
    expect(reach).toMatchObject({ matched: 8, internalDnc: 1, federalDnc: 1, reachable: 6 });

    const id = await startCampaign(db, "Patriot Investor: gold is up 3% today https://news.example.com/gold Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    expect(sent.map((m) => m.to).sort()).toEqual([ny.phoneE164, fl.phoneE164].sort());
    expect(sent[0]!.body).toMatch(new RegExp(`^Patriot Investor: gold is up 3% today ${SITE}/l/[A-Za-z0-9]{7} Reply STOP to opt out$`));
    const rows = new Map((await ledger(db, id)).map((row) => [row.address, row]));
    expect(rows.get(ct.phoneE164!)).toMatchObject({ state: "queued", reason: "quiet_hours", nextAttemptAt: new Date("2026-11-23T14:00:00Z"), attempts: 0 });
    expect(rows.get(tx.phoneE164!)!.nextAttemptAt).toEqual(new Date("2026-11-23T15:00:00Z"));
    expect(rows.get(co.phoneE164!)!.nextAttemptAt).toEqual(new Date("2026-11-23T15:00:00Z"));
    expect(rows.get(ca.phoneE164!)!.nextAttemptAt).toEqual(new Date("2026-11-23T16:00:00Z"));
    expect(rows.get(internal.phoneE164!)).toMatchObject({ state: "skipped", reason: "internal_dnc" });
    expect(rows.get(federal.phoneE164!)).toMatchObject({ state: "skipped", reason: "federal_dnc" });

    now = new Date("2026-11-23T15:00:00Z");
    await drainCampaigns(options);
    expect(sent).toHaveLength(5);
    now = new Date("2026-11-23T16:00:00Z");
    await drainCampaigns(options);
    await drainCampaigns(options);
    expect(sent.map((m) => m.to).sort()).toEqual([ny, fl, ct, tx, co, ca].map((s) => s.phoneE164).sort());
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(campaign!.status).toBe("completed");
    const results = await campaignResults(db, id, 0.0083);
    expect(results).toMatchObject({ planned: 8, sent: 6, skipped: 2, failed: 0, queued: 0, waiting: 0 });
    expect(results.skippedReasons.map((r) => r.reason).sort()).toEqual(["federal_dnc", "internal_dnc"]);
    expect(results.cost).toBeCloseTo(6 * campaign!.segments * 0.0083, 2);
  });

  it("sends a federal-list number under allow_with_consent", async () => {
    const { db } = database;
    const cohort = `consent-${kind}`;
    const person = await subscriber(db, "212", { clickId: cohort });
    await db.insert(dncNumbers).values({ phone: person.phoneE164!.slice(2), source: "federal" });
    const now = new Date("2026-11-23T17:00:00Z");
    const { transport, sent } = fakeProvider();
    const draft = await saveDraft(db, { name: "A", body: "Patriot Investor alert. Reply STOP to opt out", audience: AudienceSchema.parse({ clickId: cohort }), actor: "a", siteUrl: SITE, pricePerSegment: 0.0083 });
    if (!draft.ok) throw new Error(draft.message);
    expect((await scheduleCampaign(db, { id: draft.campaign.id, schedule: { when: "now" }, actor: "a", dncPolicy: "allow_with_consent", now })).ok).toBe(true);
    await drainCampaigns(engine(db, transport, () => now, "allow_with_consent"));
    expect(sent.map((m) => m.to)).toEqual([person.phoneE164]);
  });

  it("skips the fourth marketing text in 24 hours and lets it through a day later", async () => {
    const { db } = database;
    const cohort = `cap-${kind}`;
    await subscriber(db, "212", { clickId: cohort });
    let now = new Date("2026-11-23T14:00:00Z");
    const { transport, sent } = fakeProvider();
    const options = engine(db, transport, () => now);
    // Two alerts today, then two more that go out in the same batch.
    for (let i = 0; i < 2; i++) {
      await startCampaign(db, `Patriot Investor alert ${i}. Reply STOP to opt out`, { clickId: cohort }, now);
      await drainCampaigns(options);
      now = new Date(now.getTime() + 3_600_000);
    }
    const third = await startCampaign(db, "Patriot Investor alert 2. Reply STOP to opt out", { clickId: cohort }, now);
    const fourth = await startCampaign(db, "Patriot Investor alert 3. Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    expect(sent).toHaveLength(3);
    const outcomes = [(await ledger(db, third))[0], (await ledger(db, fourth))[0]];
    expect(outcomes.filter((row) => row!.state === "skipped")).toEqual([expect.objectContaining({ reason: "frequency_cap" })]);
    const reach = await countReach(db, AudienceSchema.parse({ clickId: cohort }), "refuse", now);
    expect(reach).toMatchObject({ frequencyCap: 1, reachable: 0 });
    now = new Date("2026-11-24T16:30:00Z");
    await startCampaign(db, "Patriot Investor alert 5. Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    expect(sent).toHaveLength(4);
  });

  it("honours a STOP that arrives mid-campaign and attributes it to the campaign before it", async () => {
    const { db } = database;
    const cohort = `stop-${kind}`;
    const early = await subscriber(db, "212", { clickId: cohort });
    const late = await subscriber(db, "213", { clickId: cohort }); // Pacific: still asleep at 15:00 UTC
    // The inbound STOP is stamped by the database's clock: the campaign runs yesterday, 15:00 UTC.
    const yesterday = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000);
    const at = (hours: number, minutes = 0) => new Date(yesterday.getTime() + hours * 3_600_000 + minutes * 60_000);
    let now = at(15);
    const { transport, sent } = fakeProvider();
    const options = engine(db, transport, () => now);
    const first = await startCampaign(db, "Patriot Investor first. Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    expect(sent.map((m) => m.to)).toEqual([early.phoneE164]);
    // Both reply STOP after the first text; the Pacific one before theirs went out.
    now = at(15, 10);
    const second = await startCampaign(db, "Patriot Investor second. Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    expect(sent.map((m) => m.to)).toEqual([early.phoneE164, early.phoneE164]);
    await handleInboundSms(db, { messageSid: `SMstop-${kind}-1`, from: early.phoneE164!, body: "STOP" }, site);
    await handleInboundSms(db, { messageSid: `SMstop-${kind}-2`, from: late.phoneE164!, body: "please stop texting me" }, site);
    now = at(17);
    await drainCampaigns(options);
    await drainCampaigns(options);
    expect(sent).toHaveLength(2);
    expect((await ledger(db, first)).find((row) => row.address === late.phoneE164)).toMatchObject({ state: "skipped", reason: "opted_out" });
    // The STOP came after the second campaign's text, so it is the second's opt-out, not the first's.
    expect((await campaignResults(db, second, 0.0083)).optOuts).toBe(1);
    expect((await campaignResults(db, first, 0.0083)).optOuts).toBe(0);
  });

  it("pauses, resumes and cancels", async () => {
    const { db } = database;
    const cohort = `pause-${kind}`;
    for (let i = 0; i < 3; i++) await subscriber(db, "212", { clickId: cohort });
    const now = new Date("2026-11-23T17:00:00Z");
    const { transport, sent } = fakeProvider();
    const options = engine(db, transport, () => now);
    const id = await startCampaign(db, "Patriot Investor paused. Reply STOP to opt out", { clickId: cohort }, now);
    // Planned on the first pass; paused before anything goes.
    await db.update(campaigns).set({ status: "scheduled" }).where(eq(campaigns.id, id));
    const { startDueCampaigns } = await import("./engine.server");
    await startDueCampaigns(options, now);
    expect((await controlCampaign(db, { id, action: "pause", actor: "a" })).ok).toBe(true);
    await drainCampaigns(options);
    expect(sent).toHaveLength(0);
    expect(await controlCampaign(db, { id, action: "pause", actor: "a" })).toMatchObject({ ok: false, code: "wrong_state" });
    expect((await controlCampaign(db, { id, action: "resume", actor: "a" })).ok).toBe(true);
    await drainCampaigns(options);
    expect(sent).toHaveLength(3);

    const cancelledCohort = `cancel-${kind}`;
    for (let i = 0; i < 2; i++) await subscriber(db, "212", { clickId: cancelledCohort });
    const cancelled = await startCampaign(db, "Patriot Investor cancelled. Reply STOP to opt out", { clickId: cancelledCohort }, now);
    await db.update(campaigns).set({ status: "scheduled" }).where(eq(campaigns.id, cancelled));
    await startDueCampaigns(options, now);
    expect((await controlCampaign(db, { id: cancelled, action: "cancel", actor: "a" })).ok).toBe(true);
    await drainCampaigns(options);
    expect(sent).toHaveLength(3);
    expect((await ledger(db, cancelled)).map((row) => row.state)).toEqual(["cancelled", "cancelled"]);
    const audit = await db.execute<{ action: string }>(sql`SELECT action FROM audit_log WHERE entity = ${`campaign:${id}`} ORDER BY id`);
    expect(audit.rows.map((row) => row.action)).toEqual(["campaign.draft_created", "campaign.send_now", "campaign.started", "campaign.pause", "campaign.resume", "campaign.completed"]);
  });

  it("asks for the typed count and a fresh second factor above the threshold", async () => {
    const { db } = database;
    const cohort = `confirm-${kind}`;
    for (let i = 0; i < 3; i++) await subscriber(db, "212", { clickId: cohort });
    const now = new Date("2026-11-23T17:00:00Z");
    const draft = await saveDraft(db, { name: "Big", body: "Patriot Investor big. Reply STOP", audience: AudienceSchema.parse({ clickId: cohort }), actor: "a", siteUrl: SITE, pricePerSegment: 0.0083 });
    if (!draft.ok) throw new Error(draft.message);
    const base = { id: draft.campaign.id, schedule: { when: "now" as const }, actor: "a", dncPolicy: "refuse" as const, now, confirmAbove: 2 };
    let codeChecks = 0;
    const code = (valid: boolean) => async () => {
      codeChecks++;
      return valid;
    };
    expect(await scheduleCampaign(db, { ...base, verifySecondFactor: code(true) })).toMatchObject({ ok: false, code: "confirm", expected: 3 });
    expect(await scheduleCampaign(db, { ...base, shownCount: 3, typedCount: 30, verifySecondFactor: code(true) })).toMatchObject({ ok: false, code: "confirm" });
    expect(codeChecks).toBe(0);
    expect(await scheduleCampaign(db, { ...base, shownCount: 3, typedCount: 3, verifySecondFactor: code(false) })).toMatchObject({ ok: false, code: "second_factor" });
    const [still] = await db.select().from(campaigns).where(eq(campaigns.id, draft.campaign.id));
    expect(still!.status).toBe("draft");
    expect(await scheduleCampaign(db, { ...base, shownCount: 3, typedCount: 3, verifySecondFactor: code(true) })).toMatchObject({ ok: true, reachable: 3 });
    expect(codeChecks).toBe(2);
    expect(await scheduleCampaign(db, { ...base, shownCount: 3, typedCount: 3 })).toMatchObject({ ok: false, code: "wrong_state" });
    const later = await saveDraft(db, { name: "Later", body: "Patriot Investor later. Reply STOP", audience: AudienceSchema.parse({ clickId: cohort }), actor: "a", siteUrl: SITE, pricePerSegment: 0.0083 });
    if (!later.ok) throw new Error(later.message);
    expect(await scheduleCampaign(db, { ...base, id: later.campaign.id, confirmAbove: 1000, schedule: { when: "later", at: new Date("2026-11-23T16:00:00Z"), zone: "America/New_York" } })).toMatchObject({ ok: false, code: "invalid" });
    expect(await scheduleCampaign(db, { ...base, id: later.campaign.id, confirmAbove: 1000, schedule: { when: "later", at: new Date("2026-11-24T14:30:00Z"), zone: "America/New_York" } })).toMatchObject({ ok: true });
    const [scheduled] = await db.select().from(campaigns).where(eq(campaigns.id, later.campaign.id));
    expect(scheduled).toMatchObject({ status: "scheduled", scheduledAt: new Date("2026-11-24T14:30:00Z"), scheduleZone: "America/New_York" });
  });

  it("narrows the audience by source, click id prefix, opt-in dates, state and time zone", async () => {
    const { db } = database;
    const tag = `aud${kind}`;
    await subscriber(db, "305", { clickId: `${tag}-fb-1`, createdAt: new Date("2026-10-01T12:00:00Z") });
    await subscriber(db, "850", { clickId: `${tag}-fb-2`, createdAt: new Date("2026-10-15T12:00:00Z") });
    await subscriber(db, "212", { clickId: `${tag}-gg-1`, source: "newsletter", createdAt: new Date("2026-11-01T12:00:00Z") });
    await subscriber(db, "212", { clickId: `${tag}-gg-2`, status: "opted_out" });
    const count = async (audience: Partial<Audience>) => (await countReach(db, AudienceSchema.parse({ clickIdMatch: "prefix", clickId: tag, ...audience }), "refuse")).reachable;
    expect(await count({})).toBe(3);
    expect(await count({ clickId: `${tag}-fb` })).toBe(2);
    expect(await count({ clickId: `${tag}-fb-1`, clickIdMatch: "exact" })).toBe(1);
    expect(await count({ sources: ["newsletter"] })).toBe(1);
    expect(await count({ states: ["FL"] })).toBe(2);
    expect(await count({ zones: ["central"] })).toBe(1);
    expect(await count({ optInFrom: "2026-10-10", optInTo: "2026-11-01" })).toBe(2);
    expect((await countReach(db, AudienceSchema.parse({ clickIdMatch: "prefix", clickId: tag }), "refuse")).notActive).toBe(1);
    expect(AudienceSchema.safeParse({ optInFrom: "2026-11-02", optInTo: "2026-11-01" }).success).toBe(false);
    expect(AudienceSchema.safeParse({ states: ["XX"] }).success).toBe(false);
  });

  it("retries 429/5xx with back-off, fails a final error, and opts out a carrier unsubscribe", async () => {
    const { db } = database;
    const cohort = `retry-${kind}`;
    const flaky = await subscriber(db, "212", { clickId: cohort });
    const invalid = await subscriber(db, "212", { clickId: cohort });
    const unsubscribed = await subscriber(db, "212", { clickId: cohort });
    let now = new Date("2026-11-23T17:00:00Z");
    let calls = 0;
    const { transport, sent } = fakeProvider((to) => {
      if (to === flaky.phoneE164) return ++calls === 1 ? { ok: false, retryable: true, error: "Twilio 429" } : { ok: true, providerId: "SMok", providerStatus: "queued" };
      if (to === invalid.phoneE164) return { ok: false, retryable: false, error: "Twilio 400 error 21211: invalid To" };
      return { ok: false, retryable: false, optedOut: true, error: "Twilio 400 error 21610" };
    });
    const options = engine(db, transport, () => now);
    const id = await startCampaign(db, "Patriot Investor retry. Reply STOP to opt out", { clickId: cohort }, now);
    await drainCampaigns(options);
    let rows = new Map((await ledger(db, id)).map((row) => [row.address, row]));
    expect(rows.get(flaky.phoneE164!)).toMatchObject({ state: "queued", attempts: 1, nextAttemptAt: new Date("2026-11-23T17:00:05Z") });
    expect(rows.get(invalid.phoneE164!)).toMatchObject({ state: "failed", reason: "provider_error" });
    expect(rows.get(unsubscribed.phoneE164!)).toMatchObject({ state: "failed", reason: "carrier_opt_out" });
    const [gone] = await db.select().from(subscribers).where(eq(subscribers.id, unsubscribed.id));
    expect(gone!.status).toBe("opted_out");
    expect(await db.select().from(dncNumbers).where(and(eq(dncNumbers.phone, unsubscribed.phoneE164!.slice(2)), eq(dncNumbers.source, "internal")))).toHaveLength(1);
    expect(await db.select().from(consentEvents).where(and(eq(consentEvents.subscriberId, unsubscribed.id), eq(consentEvents.action, "opt_out")))).toHaveLength(1);
    now = new Date("2026-11-23T17:00:06Z");
    await drainCampaigns(options);
    rows = new Map((await ledger(db, id)).map((row) => [row.address, row]));
    expect(rows.get(flaky.phoneE164!)).toMatchObject({ state: "sent", attempts: 2 });
    expect(sent.map((m) => m.to)).toEqual([flaky.phoneE164]);
  });

  it("settles a send interrupted mid-way by asking the provider: never twice, never lost", async () => {
    const { db } = database;
    const cohort = `doubt-${kind}`;
    const accepted = await subscriber(db, "212", { clickId: cohort });
    const lost = await subscriber(db, "212", { clickId: cohort });
    const now = new Date("2026-11-23T17:00:00Z");
    const provider = fakeProvider();
    const options = engine(db, provider.transport, () => now);
    const id = await startCampaign(db, "Patriot Investor doubt. Reply STOP to opt out", { clickId: cohort }, now);
    const { startDueCampaigns } = await import("./engine.server");
    await startDueCampaigns(options, now);
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
    // A process claimed both and died: the provider had taken the first message, not the second.
    await db.execute(sql`UPDATE campaign_recipients SET state = 'sending', attempts = 1, locked_at = clock_timestamp() - interval '5 minutes' WHERE campaign_id = ${id}`);
    provider.accepted.push({ to: accepted.phoneE164!, body: campaign!.sendBody!, at: new Date(Date.now() - 290_000), sid: "SMearlier" });
    await drainCampaigns(options);
    expect(provider.sent.map((m) => m.to)).toEqual([lost.phoneE164]);
    const rows = new Map((await ledger(db, id)).map((row) => [row.address, row]));
    expect(rows.get(accepted.phoneE164!)!.state).toBe("sent");
    expect(rows.get(lost.phoneE164!)!.state).toBe("sent");
    const [row] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.address, accepted.phoneE164!));
    expect(row!.providerId).toBe("SMearlier");
  });

  it("the log transport keeps what it sent in the database and answers the in-doubt lookup", async () => {
    const { db } = database;
    const transport = createLogTransport(() => {}, db);
    const since = new Date(Date.now() - 60_000);
    const result = await transport.send({ id: 1, to: "+12125550199", body: `log ${kind}` });
    expect(result).toMatchObject({ ok: true, providerId: expect.stringMatching(/^log-t\d+$/) });
    expect(await transport.lookup!({ to: "+12125550199", body: `log ${kind}`, since })).toEqual({ found: true, providerId: (result as { providerId: string }).providerId, providerStatus: "logged" });
    expect(await transport.lookup!({ to: "+12125550198", body: `log ${kind}`, since })).toEqual({ found: false });
  });

  it("keeps short links per campaign and counts clicks", async () => {
    const { db } = database;
    const now = new Date("2026-11-23T17:00:00Z");
    await subscriber(db, "212", { clickId: `links-${kind}` });
    const id = await startCampaign(db, "Patriot Investor https://a.example.com/x and https://a.example.com/x again. Reply STOP", { clickId: `links-${kind}` }, now);
    const { transport } = fakeProvider();
    await drainCampaigns(engine(db, transport, () => now));
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
    const codes = [...campaign!.sendBody!.matchAll(/\/l\/([A-Za-z0-9]+)/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(2);
    expect(codes[0]).toBe(codes[1]);
    expect(await resolveShortLink(db, codes[0]!)).toEqual({ url: "https://a.example.com/x", campaignId: id });
    expect(await resolveShortLink(db, "nope123")).toBeNull();
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.1", userAgent: "phone" });
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.1", userAgent: "phone" });
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.2", userAgent: "phone" });
    // Machines' fetches are kept apart, by reason, and never become clicks or clickers.
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.3", userAgent: "preview", machine: "link-preview" });
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.4", userAgent: "scanner", machine: "mail-scanner" });
    await recordClick(db, { code: codes[0]!, campaignId: id, ip: "203.0.113.4", userAgent: "scanner", machine: "mail-scanner" });
    expect(await campaignResults(db, id, 0.0083)).toMatchObject({
      clicks: 3,
      uniqueClickers: 2,
      machineFetches: 3,
      machineReasons: [
        { reason: "mail-scanner", count: 2 },
        { reason: "link-preview", count: 1 },
      ],
    });
  });

  it("tells how long after its copy was sent a link was opened, only for that campaign's copy", async () => {
    const { db } = database;
    const sentAt = new Date("2026-11-23T17:00:00Z");
    await subscriber(db, "212", { clickId: `copy-${kind}` });
    const id = await startCampaign(db, "Patriot Investor https://a.example.com/copy. Reply STOP", { clickId: `copy-${kind}` }, sentAt);
    await drainCampaigns(engine(db, fakeProvider().transport, () => sentAt));
    const [copy] = (await db.execute<{ id: number | string }>(sql`SELECT id FROM campaign_recipients WHERE campaign_id = ${id}`)).rows;
    const copyId = Number(copy!.id);
    expect(await secondsSinceCopySent(db, id, copyId, new Date(sentAt.getTime() + 12_000))).toBe(12);
    expect(await secondsSinceCopySent(db, randomUUID(), copyId, sentAt)).toBeNull();
    expect(await secondsSinceCopySent(db, id, copyId + 1_000_000, sentAt)).toBeNull();
  });

  it("reports the current rate and the whole send's average from the ledger's times", async () => {
    const { db } = database;
    const cohort = `rate-${kind}`;
    for (let i = 0; i < 4; i++) await subscriber(db, "212", { clickId: cohort });
    const started = new Date("2026-11-23T17:00:00Z");
    const after = (seconds: number) => new Date(started.getTime() + seconds * 1000);
    let now = started;
    const options = engine(db, fakeProvider().transport, () => now);
    const id = await startCampaign(db, "Patriot Investor rates. Reply STOP to opt out", { clickId: cohort }, now);
    const { startDueCampaigns } = await import("./engine.server");
    await startDueCampaigns(options, now);
    expect((await campaignResults(db, id, 0.0083, after(1))).rate).toEqual({ current: null, average: null });
    // The four texts go 8 s after the start.
    now = after(8);
    await drainCampaigns(options);
    expect((await campaignResults(db, id, 0.0083, after(10))).rate).toEqual({ current: 0.8, average: 0.5 });
    // A minute later nothing is sent now; the average is still the send's.
    expect((await campaignResults(db, id, 0.0083, after(70))).rate).toEqual({ current: 0, average: 0.5 });
  });

  it("shares one token bucket between senders", async () => {
    const { db } = database;
    const key = `bucket-${kind}`;
    const started = Date.now();
    let granted = 0;
    // Two takers for 1.2 s at 20 per second; the bucket holds one second (20).
    await Promise.all(
      [0, 1].map(async () => {
        while (Date.now() - started < 1200) {
          const take = await takeTokens(db, key, 20, 4);
          granted += take.granted;
          if (take.granted === 0) await new Promise((resolve) => setTimeout(resolve, take.waitMs));
        }
      }),
    );
    expect(granted).toBeGreaterThanOrEqual(20);
    expect(granted).toBeLessThanOrEqual(burstFor(20) + Math.ceil(20 * ((Date.now() - started) / 1000)));
    expect(burstFor(20)).toBe(20);
  });
});
