import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { articles, authors, importItems, importReportLines, importRuns, mediaAssets, redirects, user } from "~/db/schema";
import { saveArticle } from "~/services/content/articles.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { runImport } from "./import-worker.server";
import { claimNextRun, createRun, getRun, type ImportRunOptions } from "./runs.server";

/**
 * The import job on both databases against a local HTTP server playing the old site (never the
 * internet): what a run writes, that a second run writes nothing twice and leaves desk edits
 * alone, and that a run cut off in the middle finishes with every post once.
 */

const FIXTURE = readFileSync("tests/fixtures/import/wordpress-job.xml", "utf8");
const MAPPING: ImportRunOptions = { categories: { gold: "Precious Metals", bonds: "Bonds & Fixed Income" }, defaultCategory: "Market Analysis", overwriteEdited: false };

let oldSite: Server;
let oldOrigin = "";
const fetched: string[] = [];

beforeAll(async () => {
  const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 160, b: 40 } } }).jpeg().toBuffer();
  const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 20, g: 60, b: 120 } } }).png().toBuffer();
  const files: Record<string, [string, Buffer]> = {
    "/wp-content/uploads/2026/03/bars.jpg": ["image/jpeg", jpeg],
    "/wp-content/uploads/2025/11/ladder.png": ["image/png", png],
    "/content/images/2026/03/bars.jpg": ["image/jpeg", jpeg],
    "/content/images/2026/03/cover.jpg": ["image/jpeg", jpeg],
  };
  oldSite = createServer((req, res) => {
    fetched.push(req.url ?? "");
    const file = files[(req.url ?? "").split("?")[0]!];
    if (!file) return res.writeHead(404).end("gone");
    res.writeHead(200, { "Content-Type": file[0], "Content-Length": file[1].length }).end(file[1]);
  });
  await new Promise<void>((resolve) => oldSite.listen(0, "127.0.0.1", resolve));
  const address = oldSite.address();
  oldOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => oldSite.close(() => resolve())));

const folder = mkdtempSync(path.join(tmpdir(), "import-job-"));
function exportFile(name: string, edit: (text: string) => string = (text) => text) {
  const file = path.join(folder, name);
  writeFileSync(file, edit(FIXTURE.replaceAll("{{OLD}}", oldOrigin)));
  return file;
}

describe.each(DB_KINDS)("the WordPress import job on %s", (kind) => {
  const database = useTestDatabase(kind);
  const source = () => `wordpress:${oldOrigin}`;
  const importedBySourceId = async () => {
    const rows = await database.db
      .select({ sourceId: importItems.sourceId, article: articles })
      .from(importItems)
      .innerJoin(articles, eq(articles.id, importItems.targetId))
      .where(and(eq(importItems.source, source()), eq(importItems.kind, "article")));
    return new Map(rows.map((row) => [row.sourceId, row.article]));
  };
  const importOnce = async (file: string, options: Partial<ImportRunOptions> = {}) => {
    const run = await createRun(database.db, { kind: "wordpress", filePath: file, fileName: path.basename(file), fileBytes: 1, options: { ...MAPPING, ...options }, actor: "test", claim: true });
    const result = await runImport(database.db, run, { isStopped: () => false });
    expect(result.stopped).toBe(false);
    return (await getRun(database.db, run.id))!;
  };

  it("writes the posts as articles with their authors, categories, images, old addresses and a report", async () => {
    const { db } = database;
    // A staff member whose e-mail matches an author of the export (in another case).
    await db.insert(user).values({ id: "staff-editor", name: "Mercy Warren", email: "editor@example.com", role: "editor" });
    const run = await importOnce(exportFile("first.xml"));
    expect(run).toMatchObject({ status: "done", itemsTotal: 4, itemsDone: 4, created: 4, updated: 0, unchanged: 0, skipped: 0, error: null });

    const imported = await importedBySourceId();
    const gold = imported.get("201")!;
    expect(gold).toMatchObject({ slug: "why-gold-still-matters", status: "published", category: "Precious Metals", title: "Why Gold Still Matters in 2026" });
    expect(gold.publishAt?.toISOString()).toBe("2026-03-14T15:00:00.000Z");
    expect(gold.contentUpdatedAt?.toISOString()).toBe("2026-03-20T09:30:00.000Z");
    expect(gold.liveRevisionId).not.toBeNull();
    expect(gold.image).toMatch(/^\/media\/[0-9a-f-]{36}\/1200x800$/);
    expect(gold.imageAlt).toBe("Gold bars stacked in a bank vault");
    expect(gold.seoTitle).toBe("Why Gold Still Matters in 2026 - Liberty Ledger");
    expect(gold.seoDescription).toBe("Why gold still belongs in a saver’s plan.");
    // The body: the same image as the featured one (stored once), the link to a post of the export
    // pointing here, the link to a post not exported left, the image the old site lost left out.
    expect(gold.body).toContain(`](${gold.image}`);
    expect(gold.body).toContain("(/articles/treasury-ladders#steps)");
    expect(gold.body).toContain(`${oldOrigin}/2019/01/01/never-exported/`);
    expect(gold.body).not.toContain("missing.jpg");
    expect(gold.body).not.toContain("[caption");
    expect(await db.select({ id: mediaAssets.id }).from(mediaAssets)).toHaveLength(2);

    const ladders = imported.get("202")!;
    expect(ladders).toMatchObject({ slug: "treasury-ladders", status: "published", category: "Bonds & Fixed Income" });
    expect(ladders.image).toMatch(/^\/media\/[0-9a-f-]{36}\/640x400$/);
    expect(ladders.excerpt).toBe("A ladder spreads maturities over years, so some money comes due every year.");

    // The seed's bonds-guide keeps its address; the unmapped category goes to the default; no image: a draft.
    const guide = imported.get("203")!;
    expect(guide).toMatchObject({ slug: "bonds-guide-2", status: "draft", category: "Market Analysis", liveRevisionId: null });
    expect(imported.get("204")).toMatchObject({ slug: "notes-for-next-week", status: "draft" });

    const authorOf = async (id: string) => (await db.select().from(authors).where(eq(authors.id, id)))[0]!;
    expect(await authorOf(gold.authorId)).toMatchObject({ name: "John Hancock", slug: "john-hancock", userId: null });
    expect(await authorOf(ladders.authorId)).toMatchObject({ name: "Mercy Warren", userId: "staff-editor" });
    // No account was made for anyone.
    expect(await db.select({ id: user.id }).from(user)).toHaveLength(1);

    const paths = new Map((await db.select().from(redirects)).map((row) => [row.path, row.target]));
    expect(paths.get("/2026/03/14/why-gold-still-matters")).toBe("/articles/why-gold-still-matters");
    expect(paths.get("/?p=201")).toBe("/articles/why-gold-still-matters");
    expect(paths.get("/2025/11/02/treasury-ladders")).toBe("/articles/treasury-ladders");
    expect(paths.get("/author/jhancock")).toBe("/authors/john-hancock");

    const lines = await db.select().from(importReportLines).where(eq(importReportLines.runId, run.id));
    const reasons = lines.map((line) => `${line.outcome}: ${line.item}: ${line.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^skipped: About us: a WordPress page/),
        expect.stringMatching(/^skipped: Deleted thoughts: in the WordPress trash/),
        expect.stringMatching(/^converted with loss: Why Gold Still Matters in 2026: image .*missing\.jpg could not be brought over \(the old site answered 404\)/),
        expect.stringMatching(/^converted with loss: Why Gold Still Matters in 2026: a link to the old site points at no imported post/),
        expect.stringMatching(/^converted with loss: The Bond Guide, Revisited: published on the old site, imported as a draft because it has no featured image/),
        expect.stringMatching(/^converted with loss: The Bond Guide, Revisited: the address “bonds-guide” is taken/),
        expect.stringMatching(/^converted with loss: The Bond Guide, Revisited: category “misc” has no mapping: filed under Market Analysis/),
      ]),
    );
  }, 120_000);

  it("runs again without writing anything twice, and leaves an article edited in the desk as it is", async () => {
    const { db } = database;
    const before = await importedBySourceId();
    const assets = (await db.select({ id: mediaAssets.id }).from(mediaAssets)).length;
    const fetches = fetched.length;
    const again = await importOnce(exportFile("again.xml"));
    expect(again).toMatchObject({ status: "done", created: 0, updated: 0, unchanged: 4 });
    expect(await db.select({ id: mediaAssets.id }).from(mediaAssets)).toHaveLength(assets);
    // Images already moved are not fetched again (only the one the old site lost is asked for).
    expect(fetched.slice(fetches).filter((url) => !url.includes("missing.jpg"))).toEqual([]);

    // An editor changes the ladders article; a newer export changes it too.
    const ladders = before.get("202")!;
    const saved = await saveArticle(db, {
      id: ladders.id,
      expectedVersion: ladders.version,
      actor: "editor@example.com",
      input: { ...ladders, title: "Treasury Ladders, Explained Step by Step", seoTitle: "", seoDescription: "", sponsorName: "" },
    });
    expect(saved.ok).toBe(true);
    const newer = exportFile("newer.xml", (text) => text.replace("so some money comes due every year", "so some money comes due each year").replace("Gold has been money", "Gold has served as money"));
    const third = await importOnce(newer);
    expect(third).toMatchObject({ created: 0, updated: 1, keptEdited: 1, unchanged: 2 });
    const after = await importedBySourceId();
    expect(after.get("202")!.title).toBe("Treasury Ladders, Explained Step by Step");
    expect(after.get("202")!.body).not.toContain("each year");
    expect(after.get("201")!.body).toContain("Gold has served as money");
    expect(after.get("201")!.id).toBe(before.get("201")!.id);

    // Said so, the edit is replaced.
    const overwrite = await importOnce(newer, { overwriteEdited: true });
    expect(overwrite).toMatchObject({ updated: 1, keptEdited: 0 });
    expect((await importedBySourceId()).get("202")!.body).toContain("each year");
    const count = await db.select({ n: sql<number>`count(*)::int` }).from(importItems).where(and(eq(importItems.source, source()), eq(importItems.kind, "article")));
    expect(count[0]!.n).toBe(4);
  }, 120_000);

  it("goes on with a run cut off in the middle and writes every post once", async () => {
    const { db } = database;
    // A fresh source: the same site at another address.
    const file = exportFile("cut.xml", (text) => text.replaceAll(oldOrigin, oldOrigin.replace("127.0.0.1", "localhost")).replaceAll("why-gold-still-matters", "gold-matters").replaceAll("treasury-ladders", "ladders").replace("bonds-guide", "bond-guide-again").replace("Notes for next week", "Notes for the week after"));
    const run = await createRun(db, { kind: "wordpress", filePath: file, fileName: "cut.xml", fileBytes: 1, options: MAPPING, actor: "test", claim: true });
    // The process dies after its second post: nothing after it runs, its claim stays behind.
    const crash = new Error("killed");
    await expect(runImport(db, run, { isStopped: () => false, onProgress: (done) => {
      if (done === 2) throw crash;
    } })).rejects.toBe(crash);
    expect(await getRun(db, run.id)).toMatchObject({ status: "running", itemsDone: 2 });
    // Another process finds the claim held until it runs out, then takes the run over.
    expect(await claimNextRun(db)).toBeNull();
    await db.update(importRuns).set({ leaseUntil: new Date(Date.now() - 1000) }).where(eq(importRuns.id, run.id));
    const claimed = await claimNextRun(db);
    expect(claimed).toMatchObject({ id: run.id, itemsDone: 2 });
    expect((await runImport(db, claimed!, { isStopped: () => false })).stopped).toBe(false);
    const done = (await getRun(db, run.id))!;
    expect(done).toMatchObject({ status: "done", itemsDone: 4, created: 4 });
    const written = await db.select({ sourceId: importItems.sourceId }).from(importItems).where(and(eq(importItems.source, `wordpress:${oldOrigin.replace("127.0.0.1", "localhost")}`), eq(importItems.kind, "article")));
    expect(written.map((row) => row.sourceId).sort()).toEqual(["201", "202", "203", "204"]);
    const slugs = await db.select({ slug: articles.slug }).from(articles).where(sql`${articles.slug} LIKE 'gold-matters%' OR ${articles.slug} LIKE 'ladders%'`);
    expect(slugs.map((row) => row.slug).sort()).toEqual(["gold-matters", "ladders"]);
    // Each post's report lines once, the skipped page and trash once.
    const lines = await db.select({ item: importReportLines.item, reason: importReportLines.reason }).from(importReportLines).where(eq(importReportLines.runId, run.id));
    expect(lines.length).toBe(new Set(lines.map((line) => `${line.item}|${line.reason}`)).size);
    expect(lines.filter((line) => line.item === "About us")).toHaveLength(1);
  }, 120_000);
});

describe.each(DB_KINDS)("the Ghost import job on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("writes the posts with their authors, primary tags as categories, images and old addresses, and runs again without duplicates", async () => {
    const { db } = database;
    const run = await createRun(db, {
      kind: "ghost",
      filePath: path.resolve("tests/fixtures/import/ghost-small.json"),
      fileName: "ghost-small.json",
      fileBytes: 1,
      options: { categories: { gold: "Precious Metals" }, defaultCategory: "Wealth Building", overwriteEdited: false, oldSiteUrl: oldOrigin },
      actor: "test",
      claim: true,
    });
    expect((await runImport(db, run, { isStopped: () => false })).stopped).toBe(false);
    const done = (await getRun(db, run.id))!;
    expect(done).toMatchObject({ status: "done", itemsTotal: 5, created: 5, error: null });
    const rows = await db
      .select({ sourceId: importItems.sourceId, article: articles })
      .from(importItems)
      .innerJoin(articles, eq(articles.id, importItems.targetId))
      .where(and(eq(importItems.source, `ghost:${oldOrigin}`), eq(importItems.kind, "article")));
    const bySource = new Map(rows.map((row) => [row.sourceId, row.article]));
    const gold = bySource.get("p1")!;
    expect(gold).toMatchObject({ slug: "why-gold-still-matters", status: "published", seoTitle: "Why Gold Still Matters | Liberty Ledger", excerpt: "Gold has been money for five thousand years. Bars in a vault." });
    expect(gold.image).toMatch(/^\/media\/[0-9a-f-]{36}\/1200x800$/);
    // The body's image came from the old site too.
    expect(gold.body).toMatch(/!\[Gold bars\]\(\/media\//);
    expect(gold.body).not.toContain("__GHOST_URL__");
    // Paid posts and posts without a picture are drafts; a post only in Lexical has no body.
    expect(bySource.get("p3")).toMatchObject({ status: "draft" });
    expect(bySource.get("p7")).toMatchObject({ status: "draft" });
    expect(bySource.get("p5")).toMatchObject({ status: "draft", body: "" });
    expect(bySource.has("p4")).toBe(false);
    expect(bySource.has("p6")).toBe(false);
    const paths = new Map((await db.select().from(redirects)).map((row) => [row.path, row.target]));
    expect(paths.get("/why-gold-still-matters")).toBe("/articles/why-gold-still-matters");

    const again = await createRun(db, { kind: "ghost", filePath: run.filePath, fileName: run.fileName, fileBytes: 1, options: run.options, actor: "test", claim: true });
    await runImport(db, again, { isStopped: () => false });
    expect(await getRun(db, again.id)).toMatchObject({ created: 0, unchanged: 5 });
  }, 120_000);
});

/** The old site's uploads as a .zip of `files` (path in the archive → bytes), made with Debian's `zip`. */
function uploadsZip(name: string, files: Record<string, Buffer>) {
  const root = path.join(folder, `${name}-tree`);
  for (const [file, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), bytes);
  }
  const zip = path.join(folder, `${name}.zip`);
  execFileSync("zip", ["-q", "-r", zip, "."], { cwd: root });
  return zip;
}

describe.each(DB_KINDS)("an import with the old site's uploads as a .zip on %s", (kind) => {
  const database = useTestDatabase(kind);
  // Pictures of a size the old site does not serve: an article's image tells where it came from.
  let jpeg: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 180, g: 150, b: 30 } } }).jpeg().toBuffer();
    png = await sharp({ create: { width: 500, height: 300, channels: 3, background: { r: 30, g: 60, b: 110 } } }).png().toBuffer();
  });

  it("takes a WordPress site's images from an archive of wp-content/uploads and fetches none of them", async () => {
    const { db } = database;
    const zip = uploadsZip(`wp-${kind}`, { "wp-content/uploads/2026/03/bars.jpg": jpeg, "wp-content/uploads/2025/11/ladder.png": png });
    const file = exportFile(`zip-${kind}.xml`);
    const fetches = fetched.length;
    const run = await createRun(db, { kind: "wordpress", filePath: file, fileName: "zip.xml", fileBytes: 1, options: { ...MAPPING, uploadsPath: zip }, actor: "test", claim: true });
    expect((await runImport(db, run, { isStopped: () => false })).stopped).toBe(false);
    expect(await getRun(db, run.id)).toMatchObject({ status: "done", created: 4, error: null });
    // Nothing under the old site's uploads was asked of it, not even the image the archive lacks.
    expect(fetched.slice(fetches)).toEqual([]);
    const rows = await db
      .select({ sourceId: importItems.sourceId, article: articles })
      .from(importItems)
      .innerJoin(articles, eq(articles.id, importItems.targetId))
      .where(and(eq(importItems.source, `wordpress:${oldOrigin}`), eq(importItems.kind, "article")));
    const bySource = new Map(rows.map((row) => [row.sourceId, row.article]));
    expect(bySource.get("201")!.image).toMatch(/^\/media\/[0-9a-f-]{36}\/900x600$/);
    expect(bySource.get("201")!.body).toContain(`](${bySource.get("201")!.image}`);
    expect(bySource.get("202")!.image).toMatch(/^\/media\/[0-9a-f-]{36}\/500x300$/);
    expect(await db.select({ id: mediaAssets.id }).from(mediaAssets)).toHaveLength(2);
    const lines = await db.select().from(importReportLines).where(eq(importReportLines.runId, run.id));
    expect(lines.map((line) => line.reason)).toContainEqual(expect.stringMatching(/missing\.jpg could not be brought over \(not in the old site’s uploads given\)/));
    // A command's archive is the operator's own: it stays where it was.
    expect(existsSync(zip)).toBe(true);
  }, 120_000);

  it("takes a Ghost site's images from an archive of content/images", async () => {
    const { db } = database;
    const zip = uploadsZip(`ghost-${kind}`, { "images/2026/03/bars.jpg": jpeg, "images/2026/03/cover.jpg": jpeg });
    const fetches = fetched.length;
    const run = await createRun(db, {
      kind: "ghost",
      filePath: path.resolve("tests/fixtures/import/ghost-small.json"),
      fileName: "ghost-small.json",
      fileBytes: 1,
      options: { categories: { gold: "Precious Metals" }, defaultCategory: "Wealth Building", overwriteEdited: false, oldSiteUrl: oldOrigin, uploadsPath: zip },
      actor: "test",
      claim: true,
    });
    expect((await runImport(db, run, { isStopped: () => false })).stopped).toBe(false);
    expect(await getRun(db, run.id)).toMatchObject({ status: "done", created: 5, error: null });
    expect(fetched.slice(fetches)).toEqual([]);
    const [gold] = await db
      .select({ article: articles })
      .from(importItems)
      .innerJoin(articles, eq(articles.id, importItems.targetId))
      .where(and(eq(importItems.source, `ghost:${oldOrigin}`), eq(importItems.kind, "article"), eq(importItems.sourceId, "p1")));
    expect(gold!.article.image).toMatch(/^\/media\/[0-9a-f-]{36}\/900x600$/);
    expect(gold!.article.body).toMatch(/!\[Gold bars\]\(\/media\//);
  }, 120_000);

  it("reads a run stored with the older option's name, and fails a run whose archive is gone, in words", async () => {
    const { db } = database;
    const gone = path.join(folder, `gone-${kind}.zip`);
    const run = await createRun(db, { kind: "wordpress", filePath: exportFile(`gone-${kind}.xml`), fileName: "gone.xml", fileBytes: 1, options: { ...MAPPING, uploadsFolder: gone }, actor: "test", claim: true });
    await expect(runImport(db, run, { isStopped: () => false })).rejects.toThrow(/uploads .*gone-.*\.zip are not there/);
  });
});

/** This process's open files that are `file` (Linux's /proc). */
function openFilesOf(file: string) {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

describe("the uploads' .zip is closed however the run ends", () => {
  const database = useTestDatabase("pglite");
  const cases: [label: string, stopped: boolean, crashAt: number | undefined][] = [
    ["it finishes", false, undefined],
    ["it fails in the middle", false, 1],
    ["it is stopped", true, undefined],
  ];
  it.each(cases)("when %s", async (label, stopped, crashAt) => {
    const zip = uploadsZip(`closing-${label.replaceAll(" ", "-")}`, { "wp-content/uploads/2026/03/bars.jpg": readFileSync("tests/fixtures/import/wordpress-job.xml") });
    const file = exportFile(`closing-${label.replaceAll(" ", "-")}.xml`, (text) => text.replaceAll(oldOrigin, `http://closing-${label.replaceAll(" ", "-")}.invalid`));
    const run = await createRun(database.db, { kind: "wordpress", filePath: file, fileName: "closing.xml", fileBytes: 1, options: { ...MAPPING, uploadsPath: zip }, actor: "test", claim: true });
    const crash = new Error("killed");
    const running = runImport(database.db, run, {
      isStopped: () => stopped,
      onProgress: (done) => {
        expect(openFilesOf(zip)).toBe(1);
        if (done === crashAt) throw crash;
      },
    });
    if (crashAt) await expect(running).rejects.toBe(crash);
    else await running;
    await vi.waitFor(() => expect(openFilesOf(zip)).toBe(0), { timeout: 2_000 });
  }, 60_000);
});
