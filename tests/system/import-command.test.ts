import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toNumber } from "~/db/client.server";
import { makeWxrFile } from "../../scripts/bench/make-wxr-file";
import { openSiteDatabase, rows } from "./support/inspect";
import { runCommand } from "./support/command";

const POSTS = 40;

/**
 * `npm run import:wordpress` as an operator types it (issue 35): the npm script itself, with the
 * process settings it gives the job (decision 137), on a DATA_DIR no server holds.
 */
describe("npm run import:wordpress", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "import-command-"));
  const file = path.join(dir, "export.xml");
  // The old site's uploads as an (empty) folder: every image is looked for there, none fetched.
  const uploads = path.join(dir, "uploads");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const npmRun = (args: string[]) => runCommand("npm", ["run", "-s", "import:wordpress", "--", ...args], dir);

  const counts = async () => {
    const database = await openSiteDatabase({ dataDir: dir });
    try {
      const [row] = await rows<Record<string, unknown>>(
        database,
        `SELECT (SELECT count(*) FROM articles) AS articles, (SELECT count(*) FROM import_items WHERE kind = 'article') AS items,
                (SELECT count(*) FROM import_runs) AS runs, (SELECT count(*) FROM audit_log WHERE action LIKE 'import.%') AS audited`,
      );
      return Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, toNumber(value)]));
    } finally {
      await database.close();
    }
  };

  it("reads a dry run, refuses an unmapped category, imports with a progress bar and creates nothing twice", async () => {
    mkdirSync(uploads);
    await makeWxrFile(file, POSTS, 1_500);

    const dryRun = await npmRun([file, "--dry-run", "--report", path.join(dir, "dry-run.csv")]);
    expect(dryRun.stderr).not.toMatch(/warn|deprecat/i);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain(`${POSTS} articles would be imported`);
    const dryRunReport = readFileSync(path.join(dir, "dry-run.csv"), "utf8");
    expect(dryRunReport.split("\n")[0]).toMatch(/item/i);

    // The old site's seven categories: none mapped and no default, so nothing is written.
    const unmapped = await npmRun([file, "--category", 'gold="Precious Metals"', "--uploads", uploads]);
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toContain("These categories of the old site have no category here");
    expect(unmapped.stderr).toContain("“silver”");

    const first = await npmRun([file, "--category", 'gold="Precious Metals"', "--default-category", "Market Analysis", "--uploads", uploads, "--report", path.join(dir, "report.csv")]);
    expect(first.code, first.stderr).toBe(0);
    // The bar is drawn on stderr as the posts are written, and ends full.
    expect(first.stderr).toContain(`[${"#".repeat(30)}] ${POSTS} of ${POSTS} posts`);
    expect(first.stdout).toContain(`Done: ${POSTS} created, 0 updated, 0 unchanged`);
    const report = readFileSync(path.join(dir, "report.csv"), "utf8");
    // Every fifth post's body image is not in the (empty) uploads folder: each one reported.
    expect(report.match(/not in the old site’s uploads given/g)?.length).toBeGreaterThanOrEqual(POSTS / 5);
    const afterFirst = await counts();
    // The six seeded articles and the imported ones.
    expect(afterFirst.items).toBe(POSTS);
    expect(afterFirst.articles).toBe(6 + POSTS);
    expect(afterFirst.audited).toBeGreaterThan(0);

    // The same file with the same mapping (a changed mapping moves the articles it names: an update).
    const second = await npmRun([file, "--category", 'gold="Precious Metals"', "--default-category", "Market Analysis", "--uploads", uploads]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`Done: 0 created, 0 updated, ${POSTS} unchanged`);
    const afterSecond = await counts();
    expect(afterSecond).toEqual({ ...afterFirst, runs: afterFirst.runs! + 1, audited: afterSecond.audited });
  }, 180_000);
});
