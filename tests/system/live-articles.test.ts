import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, rows } from "./support/inspect";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";
import { randomClientIp } from "./support/traffic";

const ADMIN = { email: "live-articles@patriotinvestor.example", password: "Lexington-Green-1775!" };
/** The promise: a change is live on every process within this. */
const LIVE_WITHIN_MS = 2_000;

/** Polls until `probe` is true; answers how long it took, or fails after `timeoutMs`. */
async function timeUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A page answered from memory carries no request id (server/app.ts sets one for the router only). */
async function answer(site: SiteProcess, path: string) {
  const response = await fetch(`${site.url}${path}`, { redirect: "manual" });
  const body = await response.text();
  return { status: response.status, fromMemory: !response.headers.has("x-request-id"), body };
}

function articleForm(fields: Record<string, string>) {
  return new URLSearchParams({
    excerpt: "What the latest Treasury auction says about rates, and what a saver can do about it today.",
    body: "The auction went badly.\n\nRead [the Treasury's results](https://www.treasurydirect.gov/).",
    category: "Bonds & Fixed Income",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields over ten years",
    seoTitle: "",
    seoDescription: "",
    sponsorName: "",
    ...fields,
  });
}

/** Publishing without a deploy: a change made through one process is served by the other from memory. */
describe("articles published through one process, served by another", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: SiteProcess;
  let b: SiteProcess;
  let cookie: string;
  let authorId: string;

  const post = (path: string, form: URLSearchParams) =>
    fetch(`${a.url}${path}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: a.url, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": randomClientIp() },
      body: form,
      redirect: "manual",
    });

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // Info level: the test reads the "live pages rendered" lines.
    [a, b] = await Promise.all([startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info" }), startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info" })]);
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    cookie = await signIn(a.url, ADMIN);
    const handle = await openSiteDatabase({ url: database.url });
    try {
      authorId = (await rows<{ id: string }>(handle, "SELECT id FROM authors WHERE slug = 'david-caldwell'"))[0]!.id;
    } finally {
      await handle.close();
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it("imported the seed articles once although both processes started together, and both serve them from memory", async () => {
    for (const site of [a, b]) {
      const page = await answer(site, "/articles/bonds-guide");
      expect(page).toMatchObject({ status: 200, fromMemory: true });
    }
    const handle = await openSiteDatabase({ url: database.url });
    try {
      expect(await rows<{ n: string }>(handle, "SELECT count(*)::text AS n FROM articles")).toEqual([{ n: "6" }]);
    } finally {
      await handle.close();
    }
  });

  it("listens before the content pages are rendered, and reports ready only once they are", async () => {
    for (const site of [a, b]) {
      const out = site.output();
      const listening = out.indexOf("listening on");
      const rendered = out.indexOf('"live pages rendered"');
      expect(listening).toBeGreaterThan(-1);
      expect(rendered).toBeGreaterThan(listening);
      expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
    }
  });

  it("publishes through A's admin: B serves the page, the blog, RSS and the sitemap from memory within 2 s; unpublishing makes B answer 410 within 2 s", async () => {
    const slug = "treasury-auction-signals";
    const published = await post("/admin/articles/new", articleForm({ intent: "publish", title: "What the Treasury auction signals", slug, authorId }));
    expect(published.status, await published.clone().text()).toBe(302);
    const articleId = /\/admin\/articles\/([0-9a-f-]{36})\?done=published/.exec(published.headers.get("location") ?? "")?.[1];
    expect(articleId).toBeTruthy();
    const publishedAt = performance.now();
    const live = await timeUntil("the article on B", async () => {
      const page = await answer(b, `/articles/${slug}`);
      return page.status === 200 && page.fromMemory;
    });
    expect(live).toBeLessThan(LIVE_WITHIN_MS);
    for (const path of ["/blog", "/blog?category=bonds-fixed-income", "/rss.xml", "/rss/bonds-fixed-income.xml", "/sitemap.xml", "/authors/david-caldwell"]) {
      const page = await answer(b, path);
      expect(page.fromMemory, path).toBe(true);
      expect(page.body, path).toContain(slug);
    }
    expect(performance.now() - publishedAt).toBeLessThan(LIVE_WITHIN_MS + 1_000);
    // The other Bonds article's "read next" box now offers the new one: its page was rendered again...
    expect((await answer(b, "/articles/bonds-guide")).body).toContain(`/articles/${slug}`);
    // ...while a change renders only the lists, home, feeds and sitemap: the article and author
    // pages are rendered on their next request when what they show changed (decision 075).
    const renders = b
      .output()
      .split("\n")
      .filter((line) => line.includes('"live pages rendered"'))
      .map((line) => JSON.parse(line) as { pages: number; rendered: number; reused: number });
    expect(renders.at(-1)!.pages).toBeLessThan(30);
    // ...and of the six categories only the Bonds page and feed: the five others' are reused.
    expect(renders.at(-1)!.reused).toBeGreaterThanOrEqual(10);
    expect((await answer(b, "/blog?category=precious-metals")).body).not.toContain(slug);

    const unpublished = await post(`/admin/articles/${articleId}`, new URLSearchParams({ intent: "unpublish" }));
    expect(unpublished.status).toBe(302);
    const gone = await timeUntil("410 on B", async () => (await answer(b, `/articles/${slug}`)).status === 410);
    expect(gone).toBeLessThan(LIVE_WITHIN_MS);
    const removed = await answer(b, `/articles/${slug}`);
    expect(removed.body).toContain("This article has been removed");
    expect((await answer(b, "/blog")).body).not.toContain(slug);
    expect((await answer(b, "/articles/bonds-guide")).body).not.toContain(`/articles/${slug}`);
    // A slug that never was public is a plain 404.
    expect((await answer(b, "/articles/never-published-here")).status).toBe(404);
  });

  it("a scheduled article goes live on both processes at its time, with no request to the admin then", async () => {
    const slug = "scheduled-rate-outlook";
    const at = new Date(Date.now() + 4_000);
    const local = at.toISOString().slice(0, 19); // "YYYY-MM-DDTHH:MM:SS" in UTC
    const scheduled = await post("/admin/articles/new", articleForm({ intent: "schedule", title: "The rate outlook, on a schedule", slug, authorId, publishAt: local, zone: "UTC" }));
    expect(scheduled.status).toBe(302);
    expect(scheduled.headers.get("location")).toMatch(/\?done=scheduled$/);
    expect((await answer(a, `/articles/${slug}`)).status).toBe(404);
    const dueAt = new Date(`${local}Z`).getTime();
    await Promise.all(
      [a, b].map(async (site) => {
        await timeUntil(`the scheduled article on ${site.url}`, async () => {
          const page = await answer(site, `/articles/${slug}`);
          return page.status === 200 && page.fromMemory;
        }, 15_000);
        expect(Date.now() - dueAt).toBeLessThan(LIVE_WITHIN_MS);
      }),
    );
  });
});
