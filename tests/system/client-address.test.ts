import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/services/rate-limit.server";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";

/**
 * Without trusted proxies (TRUST_PROXY=0, the default) the client address is the socket's: a
 * client that writes its own X-Forwarded-For gets no new allowance from any rate limit, neither in
 * our forms nor in better-auth.
 */
describe("a forged X-Forwarded-For without trusted proxies", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "client-address-"));
  let site: SiteProcess;

  beforeAll(async () => {
    site = await startSite({ DATA_DIR: dataDir, TRUST_PROXY: "0" });
  });
  afterAll(async () => {
    await site?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const forged = (i: number) => ({ "X-Forwarded-For": `203.0.113.${i + 1}` });

  it("does not reset the contact form's limit per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.contactPerIp.limit; i++) {
      const response = await fetch(`${site.url}/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url, ...forged(i) },
        body: new URLSearchParams({ name: "Ann", email: "ann@example.com", subject: `Question ${i}`, message: "Hello." }),
        redirect: "manual",
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, -1).every((status) => status < 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not reset better-auth's sign-in limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${site.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, ...forged(i) },
        body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
