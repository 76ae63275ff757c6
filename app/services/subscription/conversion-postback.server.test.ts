import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversionPostbacks, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { startPostbackStandIn } from "../../../tests/support/postback-stand-in";
import { nudgePostbacks, postbackBackoffSeconds, renderPostbackUrl, startPostbackWorker } from "./conversion-postback.server";
import { optInToSms } from "./sms-opt-in.server";

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

describe("renderPostbackUrl", () => {
  it("fills every placeholder, URL-encoded, with the time in Unix seconds", () => {
    const url = renderPostbackUrl("https://t.example/p?cid={clickId}&e={event}&ts={timestamp}&tid={id}", {
      clickId: "a b&c=d/é",
      event: "opt_in",
      timestamp: new Date("2026-11-23T10:00:00Z"),
      id: "k-1",
    });
    expect(url).toBe("https://t.example/p?cid=a%20b%26c%3Dd%2F%C3%A9&e=opt_in&ts=1795428000&tid=k-1");
    expect(new URL(url).searchParams.get("cid")).toBe("a b&c=d/é");
  });

  it("backs off 2 s, 4 s, 8 s ... up to an hour", () => {
    expect([1, 2, 3].map(postbackBackoffSeconds)).toEqual([2, 4, 8]);
    expect(postbackBackoffSeconds(30)).toBe(3600);
  });
});

describe.each(DB_KINDS)("conversion postbacks on %s", (kind) => {
  const database = useTestDatabase(kind);
  let standIn: Awaited<ReturnType<typeof startPostbackStandIn>>;
  beforeAll(async () => {
    standIn = await startPostbackStandIn({ refuseEach: 2 });
  });
  afterAll(() => standIn.close());

  async function optIn(phone: string, clickId: string | null, postbackUrl: string | null = standIn.template) {
    const result = await optInToSms(
      database.db,
      { firstName: "A", lastName: "B", phone, clickId, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
      { siteName: "Patriot Investor", dncPolicy: "refuse", postbackUrl },
    );
    if (!result.ok) throw new Error(result.code);
    return result.subscriberId;
  }
  const rowsFor = (subscriberId: string) => database.db.select().from(conversionPostbacks).where(eq(conversionPostbacks.subscriberId, subscriberId));
  const makeDue = () => database.db.execute(sql`UPDATE conversion_postbacks SET next_attempt_at = now() WHERE status = 'queued'`);

  it("queues nothing without a click id or without the setting, and one call with both", async () => {
    expect(await rowsFor(await optIn("212-458-0001", null))).toHaveLength(0);
    expect(await rowsFor(await optIn("212-458-0002", "click-off", null))).toHaveLength(0);
    const id = await optIn("212-458-0003", "click-on");
    // A repeat of the same opt-in is no new conversion.
    await optIn("212-458-0003", "click-on");
    const rows = await rowsFor(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "queued", clickId: "click-on", event: "opt_in", attempts: 0 });
    const [subscriber] = await database.db.select().from(subscribers).where(eq(subscribers.id, id));
    expect(subscriber!.clickId).toBe("click-on");
    // Out of the way of the next tests, which count the calls.
    await database.db.update(conversionPostbacks).set({ status: "failed" }).where(eq(conversionPostbacks.subscriberId, id));
  });

  it("retries a refused call with back-off and counts one accepted call, with one stable id", async () => {
    const id = await optIn("212-458-0004", "click-retry");
    const worker = startPostbackWorker({ db: database.db, logger: quietLogger, autoStart: false });
    const [queued] = await rowsFor(id);
    await worker.runOnce(); // refused (503)
    let [row] = await rowsFor(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, responseStatus: 503, error: "HTTP 503" });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 500);
    // Not due yet: a poll sends nothing.
    await worker.runOnce();
    expect((await rowsFor(id))[0]!.attempts).toBe(1);
    await makeDue();
    await worker.runOnce(); // refused again
    await makeDue();
    await worker.runOnce(); // accepted
    await worker.stop();
    [row] = await rowsFor(id);
    expect(row).toMatchObject({ status: "sent", attempts: 3, responseStatus: 200, error: null });
    const calls = standIn.calls.filter((c) => c.clickId === "click-retry");
    expect(calls.map((c) => c.status)).toEqual([503, 503, 200]);
    expect(new Set(calls.map((c) => c.key))).toEqual(new Set([queued!.dedupeKey]));
  });

  it("sends a call cut off by a crash again with the same id, and the receiver counts it once", async () => {
    const id = await optIn("212-458-0005", "click-crash");
    const worker = startPostbackWorker({ db: database.db, logger: quietLogger, autoStart: false });
    for (let run = 0; run < 3; run++) {
      await makeDue();
      await worker.runOnce();
    }
    expect((await rowsFor(id))[0]).toMatchObject({ status: "sent", attempts: 3 });
    // As if a process had made the accepted call and died before writing down the answer.
    await database.db.execute(
      sql`UPDATE conversion_postbacks SET status = 'sending', locked_at = now() - interval '1 hour' WHERE subscriber_id = ${id}`,
    );
    await worker.runOnce();
    await worker.stop();
    expect((await rowsFor(id))[0]).toMatchObject({ status: "sent", attempts: 4 });
    const calls = standIn.calls.filter((c) => c.clickId === "click-crash");
    expect(calls.map((c) => c.status)).toEqual([503, 503, 200, 200]);
    expect([...standIn.accepted.values()].filter((c) => c.clickId === "click-crash")).toHaveLength(1);
  });

  it("gives up at once on a 4xx (a wrong URL), without retries", async () => {
    const id = await optIn("212-458-0006", "click-bad", standIn.template.replace("/postback", "/wrong"));
    const worker = startPostbackWorker({ db: database.db, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect((await rowsFor(id))[0]).toMatchObject({ status: "failed", attempts: 1, responseStatus: 400 });
  });

  it("waits 2 s, then 4 s, between refused calls: the back-off doubles from 2 s, whatever the poll", async () => {
    const worker = startPostbackWorker({ db: database.db, logger: quietLogger });
    try {
      await optIn("212-458-0007", "click-timing");
      nudgePostbacks();
      await expect.poll(() => [...standIn.accepted.values()].some((call) => call.clickId === "click-timing"), { timeout: 15_000, interval: 100 }).toBe(true);
    } finally {
      await worker.stop();
    }
    const calls = standIn.calls.filter((c) => c.clickId === "click-timing");
    expect(calls.map((c) => c.status)).toEqual([503, 503, 200]);
    const waits = calls.slice(1).map((call, i) => call.at - calls[i]!.at);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThan(2700);
    expect(waits[1]).toBeGreaterThanOrEqual(4000);
    expect(waits[1]).toBeLessThan(4700);
  }, 20_000);
});
