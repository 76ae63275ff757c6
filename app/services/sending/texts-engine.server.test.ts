import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, type Db } from "~/db/client.server";
import { campaignRecipients, dncNumbers, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, texts } from "../../../tests/support/texts";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import type { SendResult, SentLookup, SmsTransport } from "../providers/sms-transport.server";
import { AudienceSchema } from "./audience.server";
import { saveDraft, scheduleCampaign } from "./campaigns.server";
import { drainCampaigns, windowFor, type EngineOptions } from "./engine.server";
import { enqueueSms, type SmsKind } from "./outbox.server";
import { createSmsChannel } from "./sms-channel.server";

/**
 * Texts of their own (welcomes, replies to STOP/HELP/START, double opt-in requests, tests, phone
 * codes) go through the send engine with campaigns (decision 068): one rate, priorities, the
 * consent gate per kind, the in-doubt lookup, and a window of sends in flight.
 */

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
const SITE = "https://www.example.com";
const site = { name: "Patriot Investor", email: "info@example.com", phone: "1-800-555-0199" };

/** Quiet hours judged at 13:00 in New York (or at `hourEt`), whatever the hour the test runs. */
function offsetToEasternHour(hourEt: number) {
  const now = new Date();
  const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourEt + 5);
  return target - now.getTime();
}

type Sent = { to: string; body: string; at: number; id: number };

/** A provider stand-in: answers after `delayMs(n)` for the n-th request, remembers what it accepted. */
function provider(options: { delayMs?: (n: number) => number; behaviour?: (to: string) => SendResult; lookup?: boolean } = {}) {
  const sent: Sent[] = [];
  let n = 0;
  const transport: SmsTransport = {
    name: "twilio",
    async send(message) {
      const delay = options.delayMs?.(n++) ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const result = options.behaviour?.(message.to) ?? { ok: true, providerId: `SM${message.id}`, providerStatus: "queued" };
      if (result.ok) sent.push({ to: message.to, body: message.body, at: performance.now(), id: message.id });
      return result;
    },
    ...(options.lookup === false
      ? {}
      : {
          async lookup(query): Promise<SentLookup> {
            const hit = sent.find((m) => m.to === query.to && m.body === query.body);
            return hit ? { found: true, providerId: `SM${hit.id}`, providerStatus: "sent" } : { found: false };
          },
        }),
  };
  return { transport, sent };
}

function engine(db: Db, transport: SmsTransport, rate: number, hourEt = 13): EngineOptions {
  return {
    db,
    channel: createSmsChannel({ transport, ratePerSecond: rate, dncPolicy: "refuse", quietHoursOffsetMs: offsetToEasternHour(hourEt) }),
    logger: quietLogger,
    siteUrl: SITE,
    dncPolicy: "refuse",
    inDoubtAfterSeconds: 60,
  };
}

let line = 0;
const nextPhone = (npa = "212") => `+1${npa}55${String(10000 + line++).slice(-5)}`;

async function person(db: Db, status: "active" | "pending" | "opted_out" = "active", extra: Partial<typeof subscribers.$inferInsert> = {}) {
  const [row] = await db
    .insert(subscribers)
    .values({ channel: "sms", phoneE164: nextPhone(), firstName: "A", lastName: "B", status, source: "opt-in", ...extra })
    .returning();
  return { ...row!, phoneE164: row!.phoneE164 ?? "" };
}

/** `count` active subscribers in one statement. */
async function people(db: Db, count: number, extra: Partial<typeof subscribers.$inferInsert> = {}) {
  const rows = await db
    .insert(subscribers)
    .values(Array.from({ length: count }, () => ({ channel: "sms" as const, phoneE164: nextPhone(), firstName: "A", lastName: "B", status: "active" as const, source: "opt-in" as const, ...extra })))
    .returning();
  return rows.map((row) => ({ ...row, phoneE164: row.phoneE164 ?? "" }));
}

async function queue(db: Db, kind: SmsKind, to: string, subscriberId: string | null, body = `${kind} to ${to}`) {
  const id = await enqueueSms(db, { toPhone: to, body, kind, dedupeKey: `${kind}:${to}:${body}`, subscriberId });
  return id!;
}

async function campaign(db: Db, body: string, clickId: string) {
  const draft = await saveDraft(db, { name: "Alert", body, audience: AudienceSchema.parse({ clickId }), actor: "admin@example.com", siteUrl: SITE, pricePerSegment: 0.0083 });
  if (!draft.ok) throw new Error(draft.message);
  const scheduled = await scheduleCampaign(db, { id: draft.campaign.id, schedule: { when: "now" }, actor: "admin@example.com", dncPolicy: "refuse", now: new Date(), typedCount: undefined });
  if (!scheduled.ok) throw new Error(scheduled.message);
  return draft.campaign.id;
}

const stateOf = async (db: Db, id: number) => (await selectTexts(db).where(eq(texts.id, id)))[0]!;

describe.each(DB_KINDS)("texts of their own in the send engine on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("sends a STOP reply before a welcome backlog and the welcomes before a campaign", { timeout: 30_000 }, async () => {
    const { db } = database;
    const cohort = `prio-${kind}`;
    const members = await people(db, 5, { clickId: cohort });
    await campaign(db, "Gold is up 3% today. Reply STOP to end.", cohort);
    const welcomed = await people(db, 40);
    for (const row of welcomed) await queue(db, "welcome", row.phoneE164, row.id);
    const welcomes = welcomed.map((row) => row.phoneE164);
    // Queued last, behind 40 welcomes and a campaign: the reply to a STOP and a test text.
    const stopper = members[0]!;
    await handleInboundSms(db, { messageSid: `SM-prio-${kind}`, from: stopper.phoneE164, body: "STOP" }, site);
    const testText = nextPhone();
    await queue(db, "test", testText, null);

    const { transport, sent } = provider();
    // 20 a second: the first pass takes the bucket's 20, so the order is the engine's choice, not luck.
    await drainCampaigns(engine(db, transport, 20));
    const order = sent.map((m) => m.to);
    const stopReply = sent.findIndex((m) => m.to === stopper.phoneE164);
    expect(stopReply).toBe(0);
    expect(order[1]).toBe(testText);
    const lastWelcome = Math.max(...welcomes.map((to) => order.indexOf(to)));
    const campaignSends = members.slice(1).map((m) => order.indexOf(m.phoneE164));
    expect(campaignSends.every((index) => index > lastWelcome)).toBe(true);
    // The person who sent STOP got the confirmation and no alert.
    expect(order.filter((to) => to === stopper.phoneE164)).toHaveLength(1);
    expect(sent).toHaveLength(1 + 1 + 40 + 4);
  });

  it("a STOP that arrives while a welcome backlog is being sent is answered with the next claim", { timeout: 30_000 }, async () => {
    const { db } = database;
    for (const row of await people(db, 60)) await queue(db, "welcome", row.phoneE164, row.id);
    const stopper = await person(db);
    let stopAt = 0;
    const { transport, sent } = provider({
      delayMs: (n) => {
        // The STOP arrives while the 5th welcome is on its way.
        if (n === 4) {
          stopAt = performance.now();
          void handleInboundSms(db, { messageSid: `SM-late-${kind}`, from: stopper.phoneE164, body: "STOP" }, site);
        }
        return 5;
      },
    });
    await drainCampaigns(engine(db, transport, 20));
    const reply = sent.find((m) => m.to === stopper.phoneE164)!;
    expect(reply.body).toMatch(/unsubscribed|STOP|no more/i);
    // It did not wait for the backlog (three seconds of it): within a second and a half of the STOP
    // (the time for its own transaction to commit, and the claims already made), with at least 15
    // welcomes still to go after it.
    expect(reply.at - stopAt).toBeLessThan(1500);
    expect(sent.length - sent.indexOf(reply) - 1).toBeGreaterThanOrEqual(15);
  });

  it("a campaign and welcomes share the number's rate: together they take the time of their sum", { timeout: 30_000 }, async () => {
    const { db } = database;
    const cohort = `share-${kind}`;
    await people(db, 30, { clickId: cohort });
    await campaign(db, "Silver alert. Reply STOP to end.", cohort);
    for (const row of await people(db, 30)) await queue(db, "welcome", row.phoneE164, row.id);
    const { transport, sent } = provider();
    const started = performance.now();
    await drainCampaigns(engine(db, transport, 20));
    const elapsed = (performance.now() - started) / 1000;
    expect(sent).toHaveLength(60);
    // 60 texts at 20 a second with a bucket of 20: at least 2 s; two rates would take 1 s.
    expect(elapsed).toBeGreaterThan(1.8);
    // Over the run, never more than the rate plus the bucket in any second.
    for (const first of sent) expect(sent.filter((m) => m.at >= first.at && m.at < first.at + 1000).length).toBeLessThanOrEqual(40);
  });

  it("applies the consent gate per kind: replies always, codes without a subscriber, the rest only with consent", async () => {
    const { db } = database;
    const active = await person(db);
    const pending = await person(db, "pending");
    const out = await person(db, "opted_out");
    await db.insert(dncNumbers).values({ phone: out.phoneE164.slice(2), source: "internal" });
    const stranger = nextPhone();
    const ids = {
      stopReply: await queue(db, "stop_confirmation", out.phoneE164, out.id),
      helpReply: await queue(db, "help", out.phoneE164, out.id),
      welcomeOut: await queue(db, "welcome", out.phoneE164, out.id),
      testOut: await queue(db, "test", out.phoneE164, null),
      welcomeNobody: await queue(db, "welcome", stranger, null),
      testStranger: await queue(db, "test", stranger, null),
      codeStranger: await queue(db, "verification_code", stranger, null, "Your code is 123456"),
      doiPending: await queue(db, "doi_request", pending.phoneE164, pending.id),
      doiActive: await queue(db, "doi_request", active.phoneE164, active.id),
      startActive: await queue(db, "start_confirmation", active.phoneE164, active.id),
      welcomePending: await queue(db, "welcome", pending.phoneE164, pending.id),
    };
    // Sent at 03:00 in New York: quiet hours do not hold back a reply to the person's own action.
    const welcomeActive = await queue(db, "welcome", active.phoneE164, active.id);
    const { transport, sent } = provider();
    await drainCampaigns(engine(db, transport, 1000, 3));
    const state = async (id: number) => {
      const row = await stateOf(db, id);
      return row.status === "sent" ? "sent" : `${row.status}:${row.reason}`;
    };
    expect({
      stopReply: await state(ids.stopReply),
      helpReply: await state(ids.helpReply),
      welcomeOut: await state(ids.welcomeOut),
      testOut: await state(ids.testOut),
      welcomeNobody: await state(ids.welcomeNobody),
      testStranger: await state(ids.testStranger),
      codeStranger: await state(ids.codeStranger),
      doiPending: await state(ids.doiPending),
      doiActive: await state(ids.doiActive),
      startActive: await state(ids.startActive),
      welcomePending: await state(ids.welcomePending),
      welcomeActive: await state(welcomeActive),
    }).toEqual({
      stopReply: "sent",
      helpReply: "sent",
      welcomeOut: "cancelled:internal_dnc",
      testOut: "cancelled:internal_dnc",
      welcomeNobody: "cancelled:no_consent",
      testStranger: "sent",
      codeStranger: "sent",
      doiPending: "sent",
      doiActive: "cancelled:not_pending",
      startActive: "sent",
      welcomePending: "cancelled:not_active",
      welcomeActive: "sent",
    });
    expect((await stateOf(db, ids.welcomeNobody)).error).toBe("Not sent: No subscriber consent on record.");
    expect(sent.filter((m) => m.to === out.phoneE164).map((m) => m.body).sort()).toEqual([`help to ${out.phoneE164}`, `stop_confirmation to ${out.phoneE164}`]);
  });

  it("texts of their own do not count toward the marketing frequency cap of a later alert", async () => {
    const { db } = database;
    const cohort = `cap-${kind}`;
    const member = await person(db, "active", { clickId: cohort });
    for (const body of ["one", "two", "three"]) await queue(db, "help", member.phoneE164, member.id, body);
    const { transport, sent } = provider();
    await drainCampaigns(engine(db, transport, 1000));
    await campaign(db, "Copper alert. Reply STOP to end.", cohort);
    await drainCampaigns(engine(db, transport, 1000));
    expect(sent.filter((m) => m.to === member.phoneE164).map((m) => m.body)).toEqual(["one", "two", "three", "Copper alert. Reply STOP to end."]);
  });

  it("asks the provider about a text left sending by a crash: found is sent, not found goes once, no lookup fails", async () => {
    const { db } = database;
    const a = await person(db);
    const b = await person(db);
    const found = await queue(db, "welcome", a.phoneE164, a.id);
    const lost = await queue(db, "welcome", b.phoneE164, b.id);
    const { transport, sent } = provider();
    // The crashed process had handed the first to the provider; the second never left.
    await transport.send({ id: found, to: a.phoneE164, body: `welcome to ${a.phoneE164}` });
    await db
      .update(campaignRecipients)
      .set({ state: "sending", attempts: 1, lockedAt: sql`now() - interval '5 minutes'` })
      .where(sql`${campaignRecipients.id} IN (${found}, ${lost})`);
    await drainCampaigns(engine(db, transport, 1000));
    expect(await stateOf(db, found)).toMatchObject({ status: "sent", providerId: `SM${found}` });
    expect(await stateOf(db, lost)).toMatchObject({ status: "sent" });
    expect(sent.filter((m) => m.to === a.phoneE164)).toHaveLength(1);
    expect(sent.filter((m) => m.to === b.phoneE164)).toHaveLength(1);

    const c = await person(db);
    const unknown = await queue(db, "welcome", c.phoneE164, c.id);
    await db.update(campaignRecipients).set({ state: "sending", attempts: 1, lockedAt: sql`now() - interval '5 minutes'` }).where(eq(campaignRecipients.id, unknown));
    const blind = provider({ lookup: false });
    await drainCampaigns(engine(db, blind.transport, 1000));
    expect(await stateOf(db, unknown)).toMatchObject({ status: "failed", reason: "in_doubt" });
    expect(blind.sent).toHaveLength(0);
  });

  it("retries a text the provider could not take with back-off, and opts out a number the carrier says unsubscribed", async () => {
    const { db } = database;
    const a = await person(db);
    const b = await person(db);
    const retried = await queue(db, "welcome", a.phoneE164, a.id);
    const refused = await queue(db, "welcome", b.phoneE164, b.id);
    const { transport } = provider({
      behaviour: (to) => (to === a.phoneE164 ? { ok: false, retryable: true, error: "Twilio 503" } : { ok: false, retryable: false, error: "Twilio 400 error 21610", optedOut: true }),
    });
    await drainCampaigns(engine(db, transport, 1000));
    const row = await stateOf(db, retried);
    expect(row).toMatchObject({ status: "queued", attempts: 1, error: "Twilio 503" });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3000);
    expect(await stateOf(db, refused)).toMatchObject({ status: "failed", reason: "carrier_opt_out" });
    expect((await db.select().from(dncNumbers).where(eq(dncNumbers.phone, b.phoneE164.slice(2)))).map((d) => d.source)).toContain("internal");
  });

  it("keeps sending at the rate while 1 request in 50 waits 2 s for its answer", { timeout: 30_000 }, async () => {
    const { db } = database;
    const cohort = `slow-${kind}`;
    await people(db, 150, { clickId: cohort });
    await campaign(db, "Oil alert. Reply STOP to end.", cohort);
    const { transport, sent } = provider({ delayMs: (n) => (n % 50 === 10 ? 2000 : 5) });
    const started = performance.now();
    await drainCampaigns(engine(db, transport, 50));
    const elapsed = (performance.now() - started) / 1000;
    expect(sent).toHaveLength(150);
    expect(new Set(sent.map((m) => m.to)).size).toBe(150);
    // 150 at 50 a second with a bucket of 50 is 2 s; the last slow answer ends it at about 3.5 s.
    // Waiting for each slow answer (three of them) before the next claim took over 6 s.
    expect(elapsed).toBeLessThan(4.5);
    const fast = sent.filter((m) => m.at - started < 2_600);
    expect(fast.length).toBeGreaterThanOrEqual(140);
    expect(await db.$count(campaignRecipients, sql`${campaignRecipients.state} <> 'sent' AND ${campaignRecipients.address} IN (${sql.join(sent.map((m) => sql`${m.to}`), sql`, `)})`)).toBe(0);
  });

  it("bounds the window of sends in flight", async () => {
    expect(windowFor(1)).toBe(20);
    expect(windowFor(20)).toBe(40);
    expect(windowFor(100_000)).toBe(1000);
  });
});

describe("two senders on one PostgreSQL", () => {
  const database = useTestDatabase("postgres");

  it("sends each of 200 texts exactly once with two engines on separate connections", { timeout: 30_000 }, async () => {
    const { db } = database;
    for (let i = 0; i < 200; i++) await queue(db, "test", `+1212457${String(i).padStart(4, "0")}`, null, `m${i}`);
    const second = await openDatabase({ url: database.url, connectTimeoutMs: 60_000 });
    const a = provider({ delayMs: () => 2 });
    const b = provider({ delayMs: () => 2 });
    try {
      await Promise.all([drainCampaigns(engine(db, a.transport, 100)), drainCampaigns(engine(second.db, b.transport, 100))]);
    } finally {
      await second.close();
    }
    const bodies = [...a.sent, ...b.sent].map((m) => m.body);
    expect(bodies).toHaveLength(200);
    expect(new Set(bodies).size).toBe(200);
    expect(a.sent.length).toBeGreaterThan(0);
    expect(b.sent.length).toBeGreaterThan(0);
  });
});
