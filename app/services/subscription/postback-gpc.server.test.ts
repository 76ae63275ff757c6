import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversionPostbacks, subscriptionAttributions } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { startPostbackStandIn } from "../../../tests/support/postback-stand-in";
import { claimDuePostbacks, postbackRow, postbackSkipReason, startPostbackWorker } from "./conversion-postback.server";
import { handleInboundSms } from "./inbound-sms.server";
import { optInToSms } from "./sms-opt-in.server";
import { subscribeToNewsletter } from "./newsletter-sign-up.server";

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
const TEMPLATE = "https://t.example/p?cid={clickId}&e={event}&tid={id}";
const AT = new Date("2026-11-27T10:00:00Z");

describe("postbackSkipReason (decision 153)", () => {
  it("withholds a click id's postback only when the browser sent GPC and the postback feeds an ad platform", () => {
    const cases: [gpc: boolean, adPlatform: boolean, clickId: string | null, expected: "gpc" | null][] = [
      [true, true, "click-1", "gpc"],
      [true, false, "click-1", null],
      [false, true, "click-1", null],
      [false, false, "click-1", null],
      // No click id: there is no postback to withhold.
      [true, true, null, null],
      [true, false, null, null],
      [false, true, null, null],
      [false, false, null, null],
    ];
    for (const [gpc, adPlatform, clickId, expected] of cases) {
      expect(
        postbackSkipReason({ clickId, gpc }, adPlatform),
        `gpc ${gpc}, ad platform ${adPlatform}, click id ${clickId}`,
      ).toBe(expected);
    }
  });

  it("writes a withheld postback as skipped with its reason, and treats a missing setting as an ad platform", () => {
    expect(postbackRow(TEMPLATE, { clickId: "c", event: "opt_in", at: AT, gpc: true })).toMatchObject({
      status: "skipped",
      skipReason: "gpc",
      clickId: "c",
    });
    expect(postbackRow(TEMPLATE, { clickId: "c", event: "opt_in", at: AT, gpc: true }, false)).not.toHaveProperty(
      "status",
    );
    expect(postbackRow(TEMPLATE, { clickId: "c", event: "opt_in", at: AT })).not.toHaveProperty("status");
    expect(postbackRow(TEMPLATE, { clickId: null, event: "opt_in", at: AT, gpc: true })).toBeNull();
    expect(postbackRow(null, { clickId: "c", event: "opt_in", at: AT, gpc: true })).toBeNull();
  });
});

describe.each(DB_KINDS)("postbacks under Global Privacy Control on %s", (kind) => {
  const database = useTestDatabase(kind);
  let standIn: Awaited<ReturnType<typeof startPostbackStandIn>>;
  beforeAll(async () => {
    standIn = await startPostbackStandIn();
  });
  afterAll(() => standIn.close());

  async function optIn(
    phone: string,
    clickId: string,
    options: { gpc?: boolean; adPlatform?: boolean; doubleOptIn?: boolean } = {},
  ) {
    const result = await optInToSms(
      database.db,
      {
        firstName: "A",
        lastName: "B",
        phone,
        clickId,
        smsConsent: true,
        termsConsent: true,
        source: "opt-in",
        evidence: NO_EVIDENCE,
        gpc: options.gpc,
      },
      {
        siteName: "Patriot Investor",
        dncPolicy: "refuse",
        postbackUrl: standIn.template,
        postbackAdPlatform: options.adPlatform,
        doubleOptIn: options.doubleOptIn,
      },
    );
    if (!result.ok) throw new Error(result.code);
    return result.subscriberId;
  }
  const rowsFor = (subscriberId: string) =>
    database.db.select().from(conversionPostbacks).where(eq(conversionPostbacks.subscriberId, subscriberId));
  const gpcOf = async (subscriberId: string) =>
    (
      await database.db
        .select({ gpc: subscriptionAttributions.gpc })
        .from(subscriptionAttributions)
        .where(eq(subscriptionAttributions.subscriberId, subscriberId))
        .orderBy(desc(subscriptionAttributions.id))
    )[0]?.gpc;

  it("records a GPC sign-up's postback as skipped and never sends it; sends it with the setting at no, and without GPC", async () => {
    const withheld = await optIn("212-459-0001", "click-gpc", { gpc: true });
    const firstParty = await optIn("212-459-0002", "click-first-party", { gpc: true, adPlatform: false });
    const plain = await optIn("212-459-0003", "click-plain");
    expect(await gpcOf(withheld)).toBe(true);
    expect(await gpcOf(firstParty)).toBe(true);
    expect(await gpcOf(plain)).toBe(false);
    expect(await rowsFor(withheld)).toEqual([
      expect.objectContaining({ status: "skipped", skipReason: "gpc", event: "opt_in", attempts: 0 }),
    ]);

    const worker = startPostbackWorker({ db: database.db, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect((await rowsFor(withheld))[0]).toMatchObject({ status: "skipped", attempts: 0, sentAt: null });
    expect((await rowsFor(firstParty))[0]).toMatchObject({ status: "sent", skipReason: null });
    expect((await rowsFor(plain))[0]).toMatchObject({ status: "sent", skipReason: null });
    const sent = standIn.calls.map((call) => call.clickId);
    expect(sent).toEqual(expect.arrayContaining(["click-first-party", "click-plain"]));
    expect(sent).not.toContain("click-gpc");
    // Not even a claim picks it up, however long it waits.
    expect(await claimDuePostbacks(database.db, 100)).toEqual([]);
  });

  it("honours the sign-up's GPC when a double opt-in is confirmed later by text", async () => {
    const withheld = await optIn("212-459-0011", "click-doi-gpc", { gpc: true, doubleOptIn: true });
    const plain = await optIn("212-459-0012", "click-doi-plain", { doubleOptIn: true });
    // Nothing yet: the conversion is the "Y".
    expect(await rowsFor(withheld)).toHaveLength(0);
    for (const [index, from] of ["+12124590011", "+12124590012"].entries()) {
      await handleInboundSms(
        database.db,
        { messageSid: `SM${String(index).padStart(32, "9")}`, from, body: "Y" },
        SITE,
        { postbackUrl: standIn.template, postbackAdPlatform: true },
      );
    }
    expect(await rowsFor(withheld)).toEqual([
      expect.objectContaining({ status: "skipped", skipReason: "gpc", event: "doi_confirmed" }),
    ]);
    expect(await rowsFor(plain)).toEqual([
      expect.objectContaining({ status: "queued", skipReason: null, event: "doi_confirmed" }),
    ]);

    const worker = startPostbackWorker({ db: database.db, logger: quietLogger, autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect((await rowsFor(withheld))[0]).toMatchObject({ status: "skipped", attempts: 0 });
    expect((await rowsFor(plain))[0]).toMatchObject({ status: "sent" });
    expect(standIn.calls.map((call) => call.clickId)).not.toContain("click-doi-gpc");
  });

  it("keeps the newsletter form's GPC on both sign-ups it starts (it carries no click id, so it queues no postback)", async () => {
    const result = await subscribeToNewsletter(
      database.db,
      {
        firstName: "A",
        lastName: "B",
        email: "gpc@example.com",
        phone: "212-459-0021",
        smsConsent: true,
        termsConsent: true,
        evidence: NO_EVIDENCE,
        gpc: true,
      },
      {
        siteName: "Patriot Investor",
        dncPolicy: "refuse",
        postbackUrl: standIn.template,
        siteUrl: "http://localhost:3000",
      },
    );
    if (!result.ok || !result.sms?.ok) throw new Error("sign-up refused");
    const rows = await database.db
      .select({ channel: subscriptionAttributions.channel, gpc: subscriptionAttributions.gpc })
      .from(subscriptionAttributions);
    expect(rows.filter((row) => row.gpc)).toEqual(
      expect.arrayContaining([
        { channel: "email", gpc: true },
        { channel: "sms", gpc: true },
      ]),
    );
    expect(await rowsFor(result.sms.subscriberId)).toHaveLength(0);
  });
});
