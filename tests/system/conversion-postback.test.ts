import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { startPostbackStandIn } from "../support/postback-stand-in";
import { openSiteDatabase, rows } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";
import { mobileNumber, randomClientIp, waitFor } from "./support/traffic";

const CLICK_IDS = ["sys-click-a", "sys-click-b", "sys-click-c"];

async function optIn(site: SiteProcess, phone: string, clickId: string | null, extraHeaders: Record<string, string> = {}) {
  const response = await fetch(`${site.url}/api/phone-optin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp(), ...extraHeaders },
    body: JSON.stringify({ firstName: "Post", lastName: "Back", phone, clickId, smsConsent: true, termsConsent: true }),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean } };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * The ad network's endpoint refuses every conversion twice before it accepts it; the server that
 * queued the calls is killed with SIGKILL after the first refusals, and two fresh processes share
 * the rest. Each opt-in with a click id ends with exactly one accepted call, and the visitor's
 * answer never waited for any of it.
 */
describe("conversion postbacks across kill -9 and two processes", () => {
  it("makes exactly one accepted call per opt-in with a click id", async () => {
    const standIn = await startPostbackStandIn({ refuseEach: 2 });
    cleanups.push(standIn.close);
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const env = { DATABASE_URL: database.url, CONVERSION_POSTBACK_URL: standIn.template };

    const first = await startSite(env);
    cleanups.push(() => void first.kill9());
    for (const [i, clickId] of CLICK_IDS.entries()) {
      const started = Date.now();
      expect(await optIn(first, mobileNumber(900_000 + i), clickId)).toEqual({ status: 200, body: { success: true, dnc: false, error: null } });
      // The answer does not wait for the refused call.
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expect((await optIn(first, mobileNumber(900_010), null)).status).toBe(200);

    await waitFor("a first refusal of every conversion", async () => new Set(standIn.calls.filter((c) => c.status === 503).map((c) => c.clickId)).size === CLICK_IDS.length);
    await first.kill9();

    const [second, third] = await Promise.all([startSite(env), startSite(env)]);
    cleanups.push(() => void second.stop(), () => void third.stop());
    await waitFor("an accepted call for every conversion", async () => standIn.accepted.size === CLICK_IDS.length, 40_000);
    expect(await second.stop()).toBe(0);
    expect(await third.stop()).toBe(0);

    for (const clickId of CLICK_IDS) {
      const calls = standIn.calls.filter((c) => c.clickId === clickId);
      expect(calls.map((c) => c.status), clickId).toEqual([503, 503, 200]);
      expect(new Set(calls.map((c) => c.key)).size, clickId).toBe(1);
      expect(calls[0]!.event).toBe("opt_in");
    }
    expect(standIn.calls.every((c) => CLICK_IDS.includes(c.clickId))).toBe(true);

    const handle = await openSiteDatabase({ url: database.url });
    try {
      const stored = await rows<{ click_id: string; status: string; attempts: number }>(
        handle,
        "SELECT click_id, status, attempts FROM conversion_postbacks ORDER BY click_id",
      );
      expect(stored).toEqual(CLICK_IDS.map((clickId) => ({ click_id: clickId, status: "sent", attempts: 3 })));
    } finally {
      await handle.close();
    }
  });
});

/**
 * Global Privacy Control (decision 153): a browser that sends Sec-GPC: 1 with its opt-in, through
 * the JSON API (answered by the fast route) or the page's form without JavaScript (the router),
 * has the flag stored with the sign-up, and its postback, which feeds an ad platform by default,
 * is recorded as skipped and never called. A sign-up without the header is called as usual.
 */
describe("conversion postbacks under Global Privacy Control", () => {
  it("stores gpc from a real HTTP opt-in and never calls the postback for it", async () => {
    const standIn = await startPostbackStandIn();
    cleanups.push(standIn.close);
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const site = await startSite({ DATABASE_URL: database.url, CONVERSION_POSTBACK_URL: standIn.template });
    cleanups.push(() => void site.stop());

    expect(await optIn(site, mobileNumber(910_001), "gpc-api", { "Sec-GPC": "1" })).toEqual({ status: 200, body: { success: true, dnc: false, error: null } });
    const form = await fetch(`${site.url}/opt-in`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", "X-Forwarded-For": randomClientIp(), "Sec-GPC": "1" },
      body: new URLSearchParams({ firstName: "Form", lastName: "Post", phone: mobileNumber(910_002), clickId: "gpc-form", smsConsent: "on", termsConsent: "on" }),
      redirect: "manual",
    });
    await form.arrayBuffer();
    expect(form.status).toBe(200);
    expect((await optIn(site, mobileNumber(910_003), "no-gpc-api")).status).toBe(200);

    await waitFor("the call for the sign-up without GPC", async () => standIn.accepted.size === 1);
    // A moment more, in case a withheld call were on its way.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await site.stop()).toBe(0);
    expect(standIn.calls.map((c) => c.clickId)).toEqual(["no-gpc-api"]);

    const handle = await openSiteDatabase({ url: database.url });
    try {
      const stored = await rows<{ click_id: string; gpc: boolean; status: string; skip_reason: string | null }>(
        handle,
        `SELECT p.click_id, a.gpc, p.status, p.skip_reason FROM conversion_postbacks p
         JOIN subscription_attributions a ON a.subscriber_id = p.subscriber_id ORDER BY p.click_id`,
      );
      expect(stored).toEqual([
        { click_id: "gpc-api", gpc: true, status: "skipped", skip_reason: "gpc" },
        { click_id: "gpc-form", gpc: true, status: "skipped", skip_reason: "gpc" },
        { click_id: "no-gpc-api", gpc: false, status: "sent", skip_reason: null },
      ]);
    } finally {
      await handle.close();
    }
  });
});
