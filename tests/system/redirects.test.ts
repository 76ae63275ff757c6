import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, rows } from "./support/inspect";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";
import { randomClientIp } from "./support/traffic";

const ADMIN = { email: "redirects@patriotinvestor.example", password: "Lexington-Green-1775!" };
const LIVE_WITHIN_MS = 2_000;

async function timeUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** As a visitor of the main domain (MAIN_DOMAINS=localhost) behind the one trusted proxy. */
const visit = (site: SiteProcess, path: string, init: RequestInit = {}) =>
  fetch(`${site.url}${path}`, { redirect: "manual", ...init, headers: { "X-Forwarded-Host": "localhost", ...(init.headers as Record<string, string> | undefined) } });

/** Old addresses answering 301 from memory (decision 160), added through one process, served by both. */
describe("old addresses, added in the admin of one process, answered by the other", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: SiteProcess;
  let b: SiteProcess;
  let cookie: string;

  const add = (fields: Record<string, string>) =>
    fetch(`${a.url}/admin/redirects`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: a.url, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": randomClientIp() },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });

  beforeAll(async () => {
    database = await createPostgresDatabase();
    [a, b] = await Promise.all([startSite({ DATABASE_URL: database.url }), startSite({ DATABASE_URL: database.url })]);
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    cookie = await signIn(a.url, ADMIN);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it("answers 301 to the article on both processes within 2 s, with the headers of every answer and no body", async () => {
    const saved = await add({ intent: "add", path: "https://old.example/2019/05/bonds-explained/", target: "/articles/bonds-guide" });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(saved.headers.get("location")).toContain("done=saved");
    const live = await timeUntil("the redirect on B", async () => (await visit(b, "/2019/05/bonds-explained/")).status === 301);
    expect(live).toBeLessThan(LIVE_WITHIN_MS);
    for (const site of [a, b]) {
      for (const path of ["/2019/05/bonds-explained/", "/2019/05/bonds-explained", "/2019/05/bonds%2Dexplained/"]) {
        const answer = await visit(site, path);
        expect(answer.status, path).toBe(301);
        expect(answer.headers.get("location")).toBe("/articles/bonds-guide");
        expect(answer.headers.get("cache-control")).toBe("public, max-age=86400");
        expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
        expect(answer.headers.get("set-cookie")).toBeNull();
        expect(await answer.text()).toBe("");
      }
      const head = await visit(site, "/2019/05/bonds-explained", { method: "HEAD" });
      expect(head.status).toBe(301);
      // Campaign tags follow the reader; another method is not redirected.
      expect((await visit(site, "/2019/05/bonds-explained/?utm_source=x")).headers.get("location")).toBe("/articles/bonds-guide?utm_source=x");
      expect((await visit(site, "/2019/05/bonds-explained", { method: "POST", headers: { Origin: site.url } })).status).not.toBe(301);
    }
    // Followed, it lands on the article.
    const landed = await fetch(`${b.url}/2019/05/bonds-explained/`, { headers: { "X-Forwarded-Host": "localhost" } });
    expect(landed.status).toBe(200);
    expect(landed.url).toMatch(/\/articles\/bonds-guide$/);
  });

  it("answers an old /?p= on the home page of the main domain, while a landing host keeps its opt-in page", async () => {
    expect((await add({ intent: "add", path: "/?p=4321", target: "/articles/bonds-guide" })).status).toBe(302);
    await timeUntil("/?p= on B", async () => (await visit(b, "/?p=4321")).status === 301);
    expect((await visit(b, "/?p=4321")).headers.get("location")).toBe("/articles/bonds-guide");
    // The home page with any other query is still the home page.
    expect((await visit(b, "/?p=9999")).status).toBe(200);
    expect((await visit(b, "/?utm_source=x")).status).toBe(200);
    const landing = await fetch(`${b.url}/?p=4321`, { redirect: "manual" });
    expect(landing.status).toBe(200);
  });

  it("never lets a redirect hide a page: refused in the admin, and left out even when written into the table", async () => {
    const refused = await add({ intent: "add", path: "/about", target: "/articles/bonds-guide" });
    expect(refused.status).toBe(400);
    const handle = await openSiteDatabase({ url: database.url });
    try {
      await rows(handle, "INSERT INTO redirects (path, target, origin) VALUES ('/about', '/articles/bonds-guide', 'admin'), ('/articles/bonds-guide-old', '/articles/bonds-guide', 'admin')");
    } finally {
      await handle.close();
    }
    // Any change makes both processes reload the table.
    expect((await add({ intent: "add", path: "/2018/old-gold", target: "/articles/bonds-guide" })).status).toBe(302);
    await timeUntil("the reload on B", async () => (await visit(b, "/2018/old-gold")).status === 301);
    for (const site of [a, b]) {
      expect((await visit(site, "/about")).status).toBe(200);
      expect((await visit(site, "/articles/bonds-guide")).status).toBe(200);
      expect((await visit(site, "/articles/bonds-guide-old")).status).toBe(404);
    }
  });
});
