import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";
import { mobileNumber, randomClientIp, waitFor } from "./support/traffic";

const ADMIN = { email: "consent-crash@patriotinvestor.example", password: "Saratoga-1777-Freeman-Farm" };

type SignedCertificate = {
  certificate: {
    events: {
      action: string;
      clickId: string;
      chain: { seq: number; hash: string } | null;
      formServedAt: string | null;
      servedPage: { documentSha256: string; pageSha256: string | null } | null;
    }[];
    chainHead: { seq: number } | null;
  };
  signature: { value: string };
};

/**
 * The server is killed with SIGKILL right after it answered 200 for an opt-in, most likely before
 * its sealing step (every second) had its turn, though the test cannot be sure of that: after a
 * restart the event is in the chain (sealed from the queue the opt-in's own statement filled) and
 * its certificate is there, covered by a signed head. An opt-in on the page without JavaScript,
 * acknowledged just before the kill, has its page as sent and the time it was shown.
 */
describe("a consent certificate across kill -9", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "consent-crash-"));
  const sites: SiteProcess[] = [];
  afterAll(async () => {
    for (const site of sites) await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("has the certificate of an acknowledged opt-in after a restart", async () => {
    createAdmin({ DATA_DIR: dataDir }, ADMIN);
    const env = { DATA_DIR: dataDir, CONSENT_HEAD_SIGN_SECONDS: "1" };
    const first = await startSite(env);
    sites.push(first);
    const clickId = `crash-click-${Date.now()}`;
    const response = await fetch(`${first.url}/api/phone-optin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ firstName: "Sybil", lastName: "Ludington", phone: mobileNumber(700_001), clickId, smsConsent: true, termsConsent: true }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });

    // And one on the page, without JavaScript: the page as sent and the time it was sent travel
    // with the form (its cookie), and are on the record before the answer.
    const pageClickId = `crash-page-${Date.now()}`;
    const landing = `${first.url}/opt-in?f_name=Sybil&sub2=${pageClickId}`;
    const served = await fetch(landing);
    const servedBytes = Buffer.from(await served.arrayBuffer());
    // The page sets no cookie; its form's image does, as a browser loads it.
    expect(served.headers.get("set-cookie")).toBeNull();
    expect(servedBytes.toString("utf8")).toContain('src="/form-seen.gif?page=%2Fopt-in"');
    const seen = await fetch(`${first.url}/form-seen.gif?page=%2Fopt-in`, { headers: { Referer: landing } });
    expect(seen.headers.get("content-type")).toBe("image/gif");
    expect(seen.headers.get("cache-control")).toBe("no-store");
    const formCookie = seen.headers.get("set-cookie")!.split(";")[0]!;
    const servedAt = Date.now();
    const form = new URLSearchParams({ clickId: pageClickId, firstName: "Sybil", lastName: "Ludington", phone: mobileNumber(700_002), smsConsent: "on", termsConsent: "on", interaction: "" });
    const posted = await fetch(`${first.url}/opt-in`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: formCookie, Origin: first.url, Referer: landing, "X-Forwarded-For": randomClientIp() },
      body: form,
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Welcome Patriot!");
    await first.kill9();

    const second = await startSite(env);
    sites.push(second);
    const cookie = await signIn(second.url, ADMIN);
    const list = await (await fetch(`${second.url}/admin/subscribers?q=${clickId}`, { headers: { Cookie: cookie } })).text();
    const link = /\/admin\/subscribers\/([0-9a-f-]{36})\/consent/.exec(list);
    expect(link, "a Certificate link on the subscriber list").not.toBeNull();

    const signed = await waitFor("the opt-in sealed and covered by a signed head", async () => {
      const answer = await fetch(`${second.url}/admin/subscribers/${link![1]}/consent.json`, { headers: { Cookie: cookie } });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as SignedCertificate;
      const event = body.certificate.events[0];
      return event?.chain && body.certificate.chainHead && body.certificate.chainHead.seq >= event.chain.seq ? body : undefined;
    });
    expect(signed.certificate.events).toHaveLength(1);
    expect(signed.certificate.events[0]).toMatchObject({ action: "opt_in", clickId, chain: { seq: 1 } });
    expect(signed.signature.value).toMatch(/^[A-Za-z0-9+/]+=*$/);

    const page = await fetch(`${second.url}/admin/subscribers/${link![1]}/consent`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("By checking this box");

    const pageList = await (await fetch(`${second.url}/admin/subscribers?q=${pageClickId}`, { headers: { Cookie: cookie } })).text();
    const pageLink = /\/admin\/subscribers\/([0-9a-f-]{36})\/consent/.exec(pageList);
    expect(pageLink, "the page opt-in's Certificate link").not.toBeNull();
    const fromPage = (await (await fetch(`${second.url}/admin/subscribers/${pageLink![1]}/consent.json`, { headers: { Cookie: cookie } })).json()) as SignedCertificate;
    const event = fromPage.certificate.events[0]!;
    expect(event).toMatchObject({ action: "opt_in", clickId: pageClickId });
    expect(event.servedPage?.pageSha256).toBe(createHash("sha256").update(servedBytes).digest("hex"));
    expect(Math.abs(Date.parse(event.formServedAt!) - servedAt)).toBeLessThan(5_000);
    expect(await second.stop()).toBe(0);
  });
});
