import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, toNumber, type DatabaseHandle, type DbKind } from "~/db/client.server";
import { createRun } from "~/services/import/runs.server";
import { makeWxrFile } from "../../scripts/bench/make-wxr-file";
import { createPostgresDatabase } from "../support/test-db";
import { rows } from "./support/inspect";
import { startSite } from "./support/site";

const POSTS = 1_500;

/**
 * kill -9 of the server in the middle of an import (issue 35, decision 159): the next start goes
 * on with the run and every post is written exactly once, with the run's counts matching.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function progress(open: () => Promise<DatabaseHandle>) {
  const database = await open();
  try {
    const [run] = await rows<{ status: string; items_done: unknown; items_total: unknown; created: unknown; error: string | null }>(database, "SELECT status, items_done, items_total, created, error FROM import_runs");
    return { status: run!.status, done: toNumber(run!.items_done), total: toNumber(run!.items_total), created: toNumber(run!.created), error: run!.error };
  } finally {
    await database.close();
  }
}

async function waitFor<T>(read: () => Promise<T>, until: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each<DbKind>(["pglite", "postgres"])("kill -9 during an import", (kind) => {
  it(`finishes after a restart with every post once on ${kind}`, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "import-crash-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const file = path.join(folder, "export.xml");
    const uploads = path.join(folder, "uploads");
    mkdirSync(uploads);
    await makeWxrFile(file, POSTS, 2_000);
    const postgres = kind === "postgres" ? await createPostgresDatabase() : null;
    if (postgres) cleanups.push(postgres.drop);
    const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: folder };
    const openDirect = () => (postgres ? openDatabase({ url: postgres.url, connectTimeoutMs: 60_000 }) : openDatabase({ dataDir: path.join(folder, "pglite") }));
    // While the server runs, the embedded database is reached through it (decision 129).
    const openBeside = () => (postgres ? openDirect() : openDatabase({ dataDir: path.join(folder, "pglite"), viaRunningServer: true }));

    // The run is queued before the server starts, as an upload confirmed in the admin leaves it.
    const setup = await openDirect();
    await createRun(setup.db, {
      kind: "wordpress",
      filePath: file,
      fileName: "export.xml",
      fileBytes: 1,
      // The old site's uploads as a (here empty) folder: no image is fetched from anywhere.
      options: { categories: {}, defaultCategory: "Market Analysis", overwriteEdited: false, uploadsFolder: uploads },
      actor: "system-test",
    });
    await setup.close();

    const first = await startSite(env);
    const cut = await waitFor(() => progress(openBeside), (run) => run.done >= 100, 120_000);
    await first.kill9();
    const after = await progress(openDirect);
    expect(after.status).toBe("running");
    expect(after.done, "the kill landed in the middle of the run").toBeLessThan(POSTS);
    expect(after.done).toBeGreaterThanOrEqual(cut.done);
    if (postgres) {
      // The dead process's claim runs out after a minute; the test moves the clock past it.
      const database = await openDirect();
      await rows(database, "UPDATE import_runs SET lease_until = now() - interval '1 second'");
      await database.close();
    }

    const second = await startSite(env);
    const done = await waitFor(() => progress(openBeside), (run) => run.status !== "running", 180_000);
    expect(await second.stop()).toBe(0);
    expect(done).toMatchObject({ status: "done", done: POSTS, total: POSTS, created: POSTS, error: null });

    const database = await openDirect();
    try {
      const [counts] = await rows<{ items: unknown; distinct_items: unknown; articles: unknown; doubled: unknown }>(
        database,
        `SELECT (SELECT count(*) FROM import_items WHERE kind = 'article') AS items,
                (SELECT count(DISTINCT source_id) FROM import_items WHERE kind = 'article') AS distinct_items,
                (SELECT count(*) FROM articles WHERE slug LIKE 'bench-post-%') AS articles,
                (SELECT count(*) FROM articles WHERE slug ~ '^bench-post-[0-9]+-[0-9]+$') AS doubled`,
      );
      expect([toNumber(counts!.items), toNumber(counts!.distinct_items), toNumber(counts!.articles), toNumber(counts!.doubled)]).toEqual([POSTS, POSTS, POSTS, 0]);
    } finally {
      await database.close();
    }
  }, 420_000);
});
