import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";

/** Issue 26: start and memory independent of the archive. */
const ARCHIVE = 2_000;

/** ARCHIVE published articles in one statement each (articles, then their live revisions), copied from a seed article. */
async function addArchive(handle: DatabaseHandle) {
  await handle.db.execute(`
    INSERT INTO articles (slug, status, title, excerpt, body, category, image, image_alt, author_id, publish_at, first_published_at, content_updated_at)
    SELECT 'archive-' || n, 'published', 'Archive article number ' || n || ' on the markets', excerpt, body || E'\\n\\nArchive word archiveword' || n || '.', category, image, image_alt, author_id,
      now() - (n || ' hours')::interval, now() - (n || ' hours')::interval, now() - (n || ' hours')::interval
    FROM articles, generate_series(1, ${ARCHIVE}) AS n WHERE slug = 'bonds-guide'`);
  await handle.db.execute(`
    INSERT INTO article_revisions (article_id, content, reason, created_by)
    SELECT a.id, jsonb_build_object('title', a.title, 'excerpt', a.excerpt, 'body', a.body, 'category', a.category, 'image', a.image, 'imageAlt', a.image_alt,
      'authorId', a.author_id, 'seoTitle', null, 'seoDescription', null, 'sponsored', false, 'sponsorName', null), 'import', 'test'
    FROM articles a WHERE a.slug LIKE 'archive-%'`);
  await handle.db.execute(`UPDATE articles a SET live_revision_id = r.id FROM article_revisions r WHERE r.article_id = a.id AND a.slug LIKE 'archive-%'`);
}

describe.each(["pglite", "postgres"] as const)("a process over an archive of 2,000 articles on %s", (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "archive-start-"));
  let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  const sites: SiteProcess[] = [];
  const env = () => ({ ...(database ? { DATABASE_URL: database.url } : {}), DATA_DIR: dataDir, LOG_LEVEL: "debug" });

  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is ready within 1 s of listening, answers an article never requested, and after a restart serves it again without rendering it", async () => {
    if (kind === "postgres") database = await createPostgresDatabase();
    // The first start migrates and imports the seed articles; the archive is added while it is down.
    const first = await startSite(env(), { readyTimeoutMs: 120_000 });
    await first.stop();
    const handle = await openSiteDatabase(database ? { url: database.url } : { dataDir });
    try {
      await addArchive(handle);
    } finally {
      await handle.close();
    }

    const site = await startSite(env(), { readyTimeoutMs: 60_000, waitUntilReady: false });
    sites.push(site);
    let listeningAt = 0;
    for (;;) {
      if (!listeningAt && site.output().includes("listening on")) listeningAt = performance.now();
      if (listeningAt && (await fetch(`${site.url}/readyz`).then((response) => response.ok, () => false))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const readyMs = performance.now() - listeningAt;
    expect(readyMs).toBeLessThan(1_000);

    const never = `/articles/archive-${ARCHIVE - 7}`;
    const response = await fetch(`${site.url}${never}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Archive article number ${ARCHIVE - 7} on the markets`);
    await expect.poll(() => site.output(), { timeout: 5_000 }).toContain(`"key":"${never}","from":"render"`);
    // Kept: the next request is from memory, with no second load.
    await fetch(`${site.url}${never}`);
    expect(site.output().split(`"key":"${never}"`).length - 1).toBe(1);

    await site.stop();
    const again = await startSite(env(), { readyTimeoutMs: 60_000 });
    sites.push(again);
    const reread = await fetch(`${again.url}${never}`);
    expect(reread.status).toBe(200);
    expect(await reread.text()).toContain(`Archive article number ${ARCHIVE - 7} on the markets`);
    // The page store's line reaches the child's stdout pipe a moment after the answer may.
    await expect.poll(() => again.output(), { timeout: 5_000 }).toContain(`"key":"${never}","from":"disk"`);
    expect(again.output()).not.toContain(`"key":"${never}","from":"render"`);
    // `/blog` page 1 stays small whatever the archive.
    const blog = await (await fetch(`${again.url}/blog`)).text();
    expect(Buffer.byteLength(blog)).toBeLessThan(60 * 1024);
    console.log(JSON.stringify({ kind, readyMs: Math.round(readyMs), blogBytes: Buffer.byteLength(blog) }));
  }, 240_000);
});
