import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createPageStore, type PageToRender } from "./page-store";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A store whose render writes the page's key and digest, 1,000 bytes each (with `compress`, with
 * gzip and brotli twins as server/live-pages.ts renders them); counts its renders.
 */
function store(budgetBytes: number, dir?: string, { compress = false } = {}) {
  const rendered: string[] = [];
  const pages = createPageStore({
    budgetBytes,
    dir,
    salt: "build-1",
    render: async (page) => {
      rendered.push(page.key);
      const body = Buffer.from(`<p>${page.key} ${page.dependsOn}</p>${"<p>a paragraph of the article</p>".repeat(30)}`);
      if (compress) return { body, contentType: "text/html; charset=utf-8", gzip: gzipSync(body), brotli: brotliCompressSync(body) };
      return { body: Buffer.from(`${page.key} ${page.dependsOn} `.padEnd(1_000, ".")), contentType: "text/html; charset=utf-8" };
    },
  });
  return { pages, rendered };
}

const page = (key: string, dependsOn = "v1"): PageToRender => ({ key, url: key, dependsOn });
const v = {};
const now = () => v;

describe("the page store", () => {
  it("renders on first request, keeps within the byte budget, least recently used out first", async () => {
    const { pages, rendered } = store(3_000);
    for (const key of ["/a", "/b", "/c"]) await pages.get(page(key), v, now);
    expect(pages.peek("/a", v, () => "v1")).toBeDefined(); // /a is now the most recent
    await pages.get(page("/d"), v, now);
    expect(pages.peek("/b", v, () => "v1")).toBeUndefined();
    expect(pages.peek("/a", v, () => "v1")).toBeDefined();
    expect(pages.stats()).toMatchObject({ pages: 3, bytes: 3_000, evictions: 1 });
    expect(rendered).toEqual(["/a", "/b", "/c", "/d"]);
  });

  it("keeps the order right when the most recently used page is asked again and again, and after it leaves", async () => {
    const { pages } = store(3_000);
    for (const key of ["/a", "/b", "/c"]) await pages.get(page(key), v, now);
    // /c is the newest; asked again it stays so. /a then becomes the newest, /b the oldest.
    for (let i = 0; i < 3; i++) expect(pages.peek("/c", v, () => "v1")).toBeDefined();
    expect(pages.peek("/a", v, () => "v1")).toBeDefined();
    expect(pages.peek("/a", v, () => "v1")).toBeDefined();
    await pages.get(page("/d"), v, now);
    expect(pages.peek("/b", v, () => "v1")).toBeUndefined();
    // /d is the newest now: a hit on /c moves it after /d, so /a goes next.
    expect(pages.peek("/c", v, () => "v1")).toBeDefined();
    await pages.get(page("/e"), v, now);
    expect(pages.peek("/a", v, () => "v1")).toBeUndefined();
    expect(["/c", "/d", "/e"].every((key) => pages.peek(key, v, () => "v1") !== undefined)).toBe(true);
  });

  it("loads a page once for simultaneous requests, and does not keep one rendered across a change", async () => {
    const { pages, rendered } = store(10_000);
    const [one, two] = await Promise.all([pages.get(page("/x"), v, now), pages.get(page("/x"), v, now)]);
    expect(one).toBe(two);
    expect(rendered).toEqual(["/x"]);
    const changed = {};
    expect(await pages.get(page("/y"), v, () => changed)).not.toBeNull();
    expect(pages.peek("/y", v, () => "v1")).toBeUndefined();
  });

  it("after a change, drops a kept page whose digest moved or that is gone, and keeps the others", async () => {
    const { pages } = store(10_000);
    for (const key of ["/same", "/moved", "/gone"]) await pages.get(page(key), v, now);
    const next = {};
    expect(pages.peek("/same", next, () => "v1")).toBeDefined();
    expect(pages.peek("/moved", next, () => "v2")).toBeUndefined();
    expect(pages.peek("/gone", next, () => undefined)).toBeUndefined();
    expect(pages.stats().pages).toBe(1);
  });

  it("keeps pages on disk: a new store reads them instead of rendering, only under the same digest", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "page-store-"));
    dirs.push(dir);
    const first = store(10_000, dir);
    const kept = await first.pages.get(page("/articles/a"), v, now);
    expect(readdirSync(dir).sort().map((name) => path.extname(name))).toEqual([".body", ".json"]);
    const second = store(10_000, dir);
    const read = await second.pages.get(page("/articles/a"), v, now);
    expect(read!.body.equals(kept!.body)).toBe(true);
    expect(read!.etag).toBe(kept!.etag);
    expect(second.rendered).toEqual([]);
    expect(second.pages.stats()).toMatchObject({ diskHits: 1, renders: 0 });
    await second.pages.get(page("/articles/a", "v2"), v, now);
    expect(second.rendered).toEqual(["/articles/a"]);
  });

  it("removes disk copies not read for the set time, but never those of pages in memory, and renders a removed page again", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "page-store-"));
    dirs.push(dir);
    const writer = store(10_000, dir);
    await writer.pages.get(page("/articles/old"), v, now);
    await writer.pages.get(page("/articles/read"), v, now);
    await writer.pages.get(page("/articles/edited", "v1"), v, now);
    await writer.pages.get(page("/articles/edited", "v2"), v, now);
    // A piece a killed process left behind.
    writeFileSync(path.join(dir, "cut-off.body.4711-x"), "partial");
    const day = 86_400_000;
    const monthAgo = new Date(Date.now() - 31 * day);
    for (const name of readdirSync(dir)) utimesSync(path.join(dir, name), monthAgo, monthAgo);

    const reader = store(1_500, dir);
    // Read from disk a month later: its time moves, so it stays.
    await reader.pages.get(page("/articles/read"), v, now);
    expect(reader.pages.stats()).toMatchObject({ diskHits: 1 });
    const pagesOnDisk = () => new Set(readdirSync(dir).map((name) => name.split(".")[0])).size;
    expect(pagesOnDisk()).toBe(5);
    // The writer still holds every page in memory (a 10,000-byte budget): it removes none of those it holds (v1 of the edited page left its memory).
    expect(await writer.pages.prune(30 * day)).toBe(2);
    expect(pagesOnDisk()).toBe(3);
    // The reader holds only the page it read: the other two go, and come back by rendering.
    expect(await reader.pages.prune(30 * day)).toBe(2);
    expect(pagesOnDisk()).toBe(1);
    const again = store(10_000, dir);
    await again.pages.get(page("/articles/old"), v, now);
    await again.pages.get(page("/articles/read"), v, now);
    expect(again.rendered).toEqual(["/articles/old"]);
    expect(await again.pages.prune(30 * day)).toBe(0);
  });

  it("keeps a page compressed only, within a budget counted in compressed bytes, in memory and on disk", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "page-store-"));
    dirs.push(dir);
    const first = store(10_000, dir, { compress: true });
    const kept = (await first.pages.get(page("/articles/a"), v, now))!;
    const plain = Buffer.from(`<p>/articles/a v1</p>${"<p>a paragraph of the article</p>".repeat(30)}`);
    // The body is unzipped on demand, the same bytes as rendered; memory holds only the two twins.
    expect(kept.body.equals(plain)).toBe(true);
    expect(kept.gzip!.length + kept.brotli!.length).toBeLessThan(plain.length / 4);
    expect(first.pages.stats().bytes).toBe(kept.gzip!.length + kept.brotli!.length);
    expect(readdirSync(dir).sort().map((name) => path.extname(name))).toEqual([".br", ".gz", ".json"]);
    // Read from disk by another store: same body, same ETag and policy, not rendered again.
    const second = store(10_000, dir, { compress: true });
    const read = (await second.pages.get(page("/articles/a"), v, now))!;
    expect(second.rendered).toEqual([]);
    expect(read.body.equals(plain)).toBe(true);
    expect(read.etag).toBe(kept.etag);
    expect(read.contentSecurityPolicy).toBe(kept.contentSecurityPolicy);
    // The budget holds pages by their compressed size: ten of these fit where three plain ones would.
    const budget = store(3 * plain.length, undefined, { compress: true });
    for (let i = 0; i < 10; i++) await budget.pages.get(page(`/articles/${i}`), v, now);
    expect(budget.pages.stats()).toMatchObject({ pages: 10, evictions: 0 });
    expect(budget.pages.stats().bytes).toBeLessThanOrEqual(3 * plain.length);
  });
});
