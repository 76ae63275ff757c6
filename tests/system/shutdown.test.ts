import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSiteDatabase, smsRecordsByPhone } from "./support/inspect";
import { startSite } from "./support/site";
import { mobileNumber, postOptIn, toE164 } from "./support/traffic";

/** A request whose body arrives in two parts: the second part only after `between` resolves. */
function slowOptIn(url: string, phone: string, between: () => Promise<void>) {
  const body = JSON.stringify({ firstName: "Slow", lastName: "Body", phone, smsConsent: true, termsConsent: true });
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${url}/api/phone-optin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "X-Forwarded-For": "198.18.200.1" },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.write(body.slice(0, 20));
    void between().then(() => req.end(body.slice(20)));
  });
}

describe("graceful shutdown", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shutdown-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("on SIGTERM finishes the requests in flight, closes the database and exits within 10 s", async () => {
    const site = await startSite({ DATA_DIR: dataDir });
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);

    let started = 0;
    const slowPhone = mobileNumber(301_000);
    // This request is half-received when the signal comes; the rest of its body follows later.
    const slow = slowOptIn(site.url, slowPhone, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      started = Date.now();
      site.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    // A stream of opt-ins around the signal: each is answered in full or refused at connection.
    const stream = Array.from({ length: 30 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 20)).then(() => postOptIn(site.url, mobileNumber(300_000 + i))));

    const slowResult = await slow;
    expect(slowResult.status).toBe(200);
    expect(JSON.parse(slowResult.text)).toMatchObject({ success: true });
    const results = await Promise.all(stream);
    expect(await site.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
    expect(site.output()).not.toMatch(/"level":(50|60)/);
    for (const result of results) expect([200, undefined]).toContain(result.status);

    // Every answered opt-in, the slow one included, was stored before the exit.
    const database = await openSiteDatabase({ dataDir });
    try {
      const { subscribers } = await smsRecordsByPhone(database);
      const answered = [toE164(slowPhone), ...results.flatMap((result, i) => (result.status === 200 ? [toE164(mobileNumber(300_000 + i))] : []))];
      for (const phone of answered) expect(subscribers.get(phone), phone).toBe(1);
    } finally {
      await database.close();
    }
  });
});
