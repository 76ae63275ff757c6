import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, redirects } from "~/db/schema";
import { REDIRECT_REFUSALS as R } from "~/lib/redirect-texts";
import { CONTENT_CHANNEL } from "~/services/content/changes.server";
import { startContentSync } from "~/services/content/sync.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createRedirectMap, loadRedirectEntries, startRedirectMap } from "./redirect-map.server";
import { countRedirects, deleteRedirect, getRedirect, listRedirects, REDIRECTS_PAGE_SIZE, redirectsAfter, upsertRedirects } from "./redirects.server";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const admin = { origin: "admin", actor: "ed@example.com" };

async function until(probe: () => boolean, timeoutMs = 5_000) {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(DB_KINDS)("old addresses on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("stores normalized paths and checked targets, refusing foreign targets, loops and chains with the reason", async () => {
    const { db } = database;
    const result = await upsertRedirects(
      db,
      [
        { path: "https://old.example/2019/05/gold-rush/", target: "/articles/gold-rush/" },
        { path: "/?p=123", target: "/articles/gold-rush" },
        { path: "/caf%C3%A9/", target: "/articles/cafe" },
        { path: "/elsewhere", target: "https://evil.example/x" },
        { path: "/protocol-relative", target: "//evil.example/x" },
        { path: "/articles/mine", target: "/articles/other" },
        { path: "/self", target: "/self/" },
        // A chain within the batch: the first row stands, the second is refused.
        { path: "/a", target: "/b" },
        { path: "/b", target: "/articles/b" },
        // The same path twice: the same target is fine, another is refused.
        { path: "/?p=123", target: "/articles/gold-rush" },
        { path: "https://old.example/?p=123", target: "/articles/else" },
      ],
      { origin: "import:run-1", actor: null },
    );
    expect(result.written).toBe(4);
    expect(result.refused).toEqual([
      { path: "/elsewhere", reason: R.targetNotHere },
      { path: "/protocol-relative", reason: R.targetNotHere },
      { path: "/articles/mine", reason: R.ownPage("/articles/mine") },
      { path: "/self", reason: R.selfLoop },
      { path: "/?p=123", reason: R.duplicate },
      { path: "/b", reason: R.sourceIsTarget("/b") },
    ]);
    expect(await getRedirect(db, "/2019/05/gold-rush")).toMatchObject({ target: "/articles/gold-rush", origin: "import:run-1", updatedBy: null });
    expect(await getRedirect(db, "/café")).toMatchObject({ target: "/articles/cafe" });

    // Against the table: a target that is an old address, and an old address something points at.
    expect(await upsertRedirects(db, [{ path: "/c", target: "/a/" }], admin)).toEqual({ written: 0, refused: [{ path: "/c", reason: R.targetIsSource("/a") }] });
    expect(await upsertRedirects(db, [{ path: "/b/", target: "/articles/b" }], admin)).toEqual({ written: 0, refused: [{ path: "/b", reason: R.sourceIsTarget("/b") }] });
    // A target with another query is still looked up under its path: a chain too.
    expect((await upsertRedirects(db, [{ path: "/d", target: "/a?utm_source=x" }], admin)).refused).toHaveLength(1);

    // An edit replaces the target and says who did it.
    expect(await upsertRedirects(db, [{ path: "/a", target: "/articles/a" }], admin)).toEqual({ written: 1, refused: [] });
    expect(await getRedirect(db, "/a")).toMatchObject({ target: "/articles/a", origin: "admin", updatedBy: "ed@example.com" });
    const audit = await db.select().from(auditLog).where(eq(auditLog.entity, "redirects")).orderBy(auditLog.id);
    expect(audit.map((entry) => entry.action)).toEqual(["redirect.imported", "redirect.saved"]);
    expect(JSON.parse(audit[1]!.before!)).toEqual({ path: "/a", target: "/b" });

    expect(await deleteRedirect(db, "/a", "ed@example.com")).toBe(true);
    expect(await deleteRedirect(db, "/a", "ed@example.com")).toBe(false);
    expect(await getRedirect(db, "/a")).toBeNull();
    // Nothing points at /b any more: it may become an old address now.
    expect((await upsertRedirects(db, [{ path: "/b", target: "/articles/b" }], admin)).written).toBe(1);
  });

  it("writes 20,000 rows in one call, lists them 50 a page, searches, and loads them into the map", async () => {
    const { db } = database;
    const rows = Array.from({ length: 10_000 }, (_, i) => [
      { path: `/2020/01/post-${i}/`, target: `/articles/post-${i}` },
      { path: `/?p=${i + 1_000}`, target: `/articles/post-${i}` },
    ]).flat();
    const started = performance.now();
    const result = await upsertRedirects(db, rows, { origin: "import:run-2", actor: "import" });
    const ms = performance.now() - started;
    expect(result).toEqual({ written: 20_000, refused: [] });
    expect(ms).toBeLessThan(30_000);
    // Again: the same rows are updated, not duplicated.
    expect((await upsertRedirects(db, rows.slice(0, 3_000), { origin: "import:run-3", actor: "import" })).written).toBe(3_000);
    const total = await countRedirects(db);
    expect(total).toBeGreaterThanOrEqual(20_000);

    const first = await listRedirects(db, { page: 1 });
    expect(first.rows).toHaveLength(REDIRECTS_PAGE_SIZE);
    expect(first.total).toBe(total);
    const searched = await listRedirects(db, { q: "post-1234" });
    expect(searched.rows.map((row) => row.path).sort()).toEqual(["/2020/01/post-1234", "/?p=2234"]);
    expect((await listRedirects(db, { q: "100%_" })).total).toBe(0);

    const batch = await redirectsAfter(db, null, 10);
    expect(batch).toHaveLength(10);
    expect((await redirectsAfter(db, batch.at(-1)!.path, 10))[0]!.path > batch.at(-1)!.path).toBe(true);

    const { entries } = await loadRedirectEntries(db);
    expect(entries.size).toBe(total);
    const map = createRedirectMap(entries);
    expect(map.locationFor("/2020/01/post-7/")).toBe("/articles/post-7");
    expect(map.locationFor("/2020/01/post-7?utm_source=news")).toBe("/articles/post-7?utm_source=news");
    expect(map.locationFor("/?p=1007")).toBe("/articles/post-7");
    expect(map.locationFor("/?p=1007&utm_source=x")).toBeUndefined();
    expect(map.locationFor("/2020/01/POST-7")).toBeUndefined();
  }, 120_000);

  it("leaves out of the map a stored path that has become one of the site's own", async () => {
    const { db } = database;
    await db.insert(redirects).values([
      { path: "/about", target: "/articles/x", origin: "admin" },
      { path: "/", target: "/articles/x", origin: "admin" },
    ]);
    const { entries, skipped } = await loadRedirectEntries(db);
    expect(skipped).toBe(2);
    expect(entries.has("/about")).toBe(false);
    await db.delete(redirects).where(eq(redirects.origin, "admin"));
  });

  it("reloads the map after a change here, and after one another process announces", async () => {
    const { db } = database;
    const sync = await startContentSync({ db, databaseUrl: database.url, logger: quiet });
    const map = createRedirectMap();
    const loop = await startRedirectMap({ db, map, logger: quiet });
    try {
      const before = map.size;
      await upsertRedirects(db, [{ path: "/fresh-old-post", target: "/articles/fresh" }], admin);
      await until(() => map.locationFor("/fresh-old-post/") === "/articles/fresh");
      expect(map.size).toBe(before + 1);
      await deleteRedirect(db, "/fresh-old-post", "ed@example.com");
      await until(() => map.locationFor("/fresh-old-post") === undefined);
      if (kind === "postgres") {
        // Written by another process: only its notification tells this one.
        await db.insert(redirects).values({ path: "/from-elsewhere", target: "/articles/elsewhere", origin: "admin" });
        await db.execute(sql`SELECT pg_notify(${CONTENT_CHANNEL}, ${JSON.stringify({ from: "another-process", change: "redirects" })})`);
        await until(() => map.locationFor("/from-elsewhere") === "/articles/elsewhere");
      }
    } finally {
      await loop.stop();
      await sync.stop();
    }
  });
});

describe("the redirect map's size", () => {
  it("holds 100,000 old addresses in a few tens of megabytes", () => {
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const entries = new Map<string, string>();
    const targets: string[] = Array.from({ length: 50_000 }, (_, i) => `/articles/a-fairly-typical-article-slug-${i}`);
    for (let i = 0; i < 100_000; i++) entries.set(i % 2 ? `/?p=${i}` : `/2019/05/a-fairly-typical-old-post-slug-${i}`, targets[i >> 1]!);
    const map = createRedirectMap(entries);
    globalThis.gc?.();
    const megabytes = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    expect(map.locationFor("/2019/05/a-fairly-typical-old-post-slug-0/")).toBe(targets[0]);
    // Measured about 11 MB with a collected heap (keys, targets and the table); the bound leaves room for noise.
    expect(megabytes).toBeLessThan(60);
  });
});
