import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, type Db } from "~/db/client.server";
import { dncNumbers, smsMessages, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { enqueueSms } from "./outbox.server";
import { backoffSeconds, startOutboxWorker } from "./outbox-worker.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import type { SendResult, SmsTransport } from "../providers/sms-transport.server";

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

function recordingTransport(behaviour: (to: string) => SendResult = () => ({ ok: true, providerId: "p", providerStatus: "queued" })) {
  const sent: { id: number; to: string; body: string }[] = [];
  const transport: SmsTransport = {
    name: "log",
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const result = behaviour(message.to);
      if (result.ok) sent.push(message);
      return result;
    },
  };
  return { transport, sent };
}

async function subscribe(db: Db, phone: string) {
  const result = await optInToSms(
    db,
    { firstName: "A", lastName: "B", phone, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
    { siteName: "Patriot Investor", dncPolicy: "refuse" },
  );
  if (!result.ok) throw new Error(`opt-in failed: ${result.code}`);
  return result.subscriberId;
}

describe("backoffSeconds", () => {
  it("doubles from 5 s and stops at an hour", () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([5, 10, 20, 40]);
    expect(backoffSeconds(20)).toBe(3600);
  });
});

describe.each(DB_KINDS)("the SMS outbox on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("sends a queued welcome once and marks it sent", async () => {
    const { db } = database;
    await subscribe(db, "212-456-1001");
    const { transport, sent } = recordingTransport();
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.runOnce();
    await worker.stop();
    expect(sent.filter((m) => m.to === "+12124561001")).toHaveLength(1);
    const [row] = await db.select().from(smsMessages).where(eq(smsMessages.toPhone, "+12124561001"));
    expect(row).toMatchObject({ status: "sent", attempts: 1, providerId: "p" });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("cancels, with the reason, a message whose number opted out before it went", async () => {
    const { db } = database;
    const subscriberId = await subscribe(db, "212-456-1002");
    await db.update(subscribers).set({ status: "opted_out" }).where(eq(subscribers.id, subscriberId));
    await db.insert(dncNumbers).values({ phone: "2124561002", source: "internal" });
    const { transport, sent } = recordingTransport();
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect(sent.filter((m) => m.to === "+12124561002")).toHaveLength(0);
    const [row] = await db.select().from(smsMessages).where(eq(smsMessages.toPhone, "+12124561002"));
    expect(row!.status).toBe("cancelled");
    expect(row!.error).toMatch(/opted out/);
  });

  it("never sends a marketing text without an active subscriber behind it", async () => {
    const { db } = database;
    await enqueueSms(db, { toPhone: "+12124561003", body: "hello", kind: "welcome", dedupeKey: "orphan-1" });
    const { transport, sent } = recordingTransport();
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect(sent.filter((m) => m.to === "+12124561003")).toHaveLength(0);
    const [row] = await db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, "orphan-1"));
    expect(row!.status).toBe("cancelled");
  });

  it("retries a failed send later with back-off, then sends it once the provider is back", async () => {
    const { db } = database;
    await subscribe(db, "212-456-1004");
    let providerUp = false;
    const { transport, sent } = recordingTransport(() =>
      providerUp ? { ok: true, providerId: "p2", providerStatus: "queued" } : { ok: false, retryable: true, error: "down" },
    );
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    let [row] = await db.select().from(smsMessages).where(eq(smsMessages.toPhone, "+12124561004"));
    expect(row).toMatchObject({ status: "queued", attempts: 1, error: "down" });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3000);
    providerUp = true;
    await worker.runOnce();
    expect(sent.filter((m) => m.to === "+12124561004")).toHaveLength(0);
    await db.update(smsMessages).set({ nextAttemptAt: sql`now()` }).where(eq(smsMessages.id, row!.id));
    await worker.runOnce();
    await worker.stop();
    [row] = await db.select().from(smsMessages).where(eq(smsMessages.id, row!.id));
    expect(row).toMatchObject({ status: "sent", attempts: 2 });
    expect(sent.filter((m) => m.to === "+12124561004")).toHaveLength(1);
  });

  it("stops retrying a permanent failure and suppresses a number the provider says opted out", async () => {
    const { db } = database;
    await subscribe(db, "212-456-1005");
    const { transport } = recordingTransport(() => ({ ok: false, retryable: false, error: "Twilio 400 error 21610", optedOut: true }));
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    const [row] = await db.select().from(smsMessages).where(eq(smsMessages.toPhone, "+12124561005"));
    expect(row!.status).toBe("failed");
    const dnc = await db.select().from(dncNumbers).where(eq(dncNumbers.phone, "2124561005"));
    expect(dnc.map((d) => d.source)).toContain("internal");
  });

  it("marks a message left 'sending' by a crash as failed instead of sending it again", async () => {
    const { db } = database;
    await enqueueSms(db, { toPhone: "+12124561006", body: "x", kind: "test", dedupeKey: "crashed-1" });
    await db.update(smsMessages).set({ status: "sending", lockedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(smsMessages.dedupeKey, "crashed-1"));
    const { transport, sent } = recordingTransport();
    const worker = startOutboxWorker({ db, transport, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect(sent.filter((m) => m.to === "+12124561006")).toHaveLength(0);
    const [row] = await db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, "crashed-1"));
    expect(row!.status).toBe("failed");
  });
});

describe("two workers on one PostgreSQL", () => {
  const database = useTestDatabase("postgres");

  it("sends each of 200 messages exactly once with two workers on separate connections", async () => {
    const { db } = database;
    for (let i = 0; i < 200; i++) {
      await enqueueSms(db, { toPhone: `+1212457${String(i).padStart(4, "0")}`, body: `m${i}`, kind: "test", dedupeKey: `pair-${i}` });
    }
    const second = await openDatabase({ url: database.url });
    const a = recordingTransport();
    const b = recordingTransport();
    const workerA = startOutboxWorker({ db, transport: a.transport, logger: quietLogger, autoStart: false, batchSize: 5 });
    const workerB = startOutboxWorker({ db: second.db, transport: b.transport, logger: quietLogger, autoStart: false, batchSize: 5 });
    await Promise.all([workerA.runOnce(), workerB.runOnce(), workerA.runOnce(), workerB.runOnce()]);
    await Promise.all([workerA.stop(), workerB.stop()]);
    await second.close();
    const ids = [...a.sent, ...b.sent].map((m) => m.body).filter((body) => /^m\d+$/.test(body));
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect(a.sent.length).toBeGreaterThan(0);
    expect(b.sent.length).toBeGreaterThan(0);
  });
});
