import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";

const ADMIN = { email: "two-factor-required@patriotinvestor.example", password: "Monmouth-1778-Courthouse" };

/** With ADMIN_REQUIRE_2FA an admin without two-factor sign-in reaches only the page that turns it on. */
describe("ADMIN_REQUIRE_2FA", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "require-2fa-"));
  let site: SiteProcess;

  beforeAll(async () => {
    // PGlite admits one process per folder: create the admin before the server opens it.
    createAdmin({ DATA_DIR: dataDir }, ADMIN);
    site = await startSite({ DATA_DIR: dataDir, ADMIN_REQUIRE_2FA: "true" });
  });
  afterAll(async () => {
    await site?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends every admin page and admin post to the two-factor setup until it is on", async () => {
    const cookie = await signIn(site.url, ADMIN);
    for (const page of ["/admin/sms", "/admin/subscribers", "/admin/messages", "/admin/inbox", "/admin/dnc", "/admin/subscribers.csv"]) {
      const response = await fetch(`${site.url}${page}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(response.status, page).toBe(302);
      expect(response.headers.get("location"), page).toBe("/admin/security?required=1");
    }
    const save = await fetch(`${site.url}/admin/sms`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: site.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "save", message: "Changed without two-factor", version: "1" }),
      redirect: "manual",
    });
    expect(save.status).toBe(302);
    expect(save.headers.get("location")).toBe("/admin/security?required=1");

    const security = await fetch(`${site.url}/admin/security?required=1`, { headers: { Cookie: cookie } });
    expect(security.status).toBe(200);
    expect(await security.text()).toMatch(/two-factor/i);
  });
});
