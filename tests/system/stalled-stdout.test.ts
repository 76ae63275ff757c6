import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { startSite, type SiteProcess } from "./support/site";

// Each 404 writes a warn line with its path: a long path makes each line about 2 KB, so a few
// hundred requests are more than the pipe (64 KB) and the quarter megabyte the server may hold.
const LONG_PATH = `/wp-content/plugins/${"a-scanner-looking-for-an-old-plugin-".repeat(40)}readme.txt`;
const REQUESTS = 600;

/**
 * A site whose stdout nobody reads (a stalled pipe or log agent): pino writes without blocking, so
 * it kept every line in memory, and a flood of 404s ended the process at its heap limit. The buffer
 * is bounded now (LOG_BUFFER_MB, decision 161): the site goes on answering, and warn lines say how
 * many lines were dropped, so every line is either written or counted.
 */
describe("a site whose stdout is not being read", () => {
  let site: SiteProcess;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    site = await startSite({ DATABASE_URL: database.url, LOG_LEVEL: "warn", LOG_BUFFER_MB: "0.25" });
  });
  afterAll(async () => {
    site.child.stdout!.resume();
    await site.stop();
    await drop();
  });

  it("goes on answering while lines are dropped, and says how many were dropped", async () => {
    site.child.stdout!.pause();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < REQUESTS) {
          next += 1;
          const response = await fetch(`${site.url}${LONG_PATH}?n=${next}`);
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 404)).toEqual([]);
    expect(await fetch(`${site.url}/readyz`).then((response) => response.status)).toBe(200);
    site.child.stdout!.resume();

    // Every line was either written or counted in a report: none lost without a word.
    const lines = () =>
      site
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map(
          (line) =>
            JSON.parse(line) as { level: number; msg: string; path?: string; dropped?: number; requestId?: string },
        );
    const accounted = () => {
      const all = lines();
      const written = all.filter((line) => line.path?.startsWith(LONG_PATH)).length;
      const dropped = all.reduce((sum, line) => sum + (line.dropped ?? 0), 0);
      return written + dropped;
    };
    await expect.poll(accounted, { timeout: 15_000 }).toBe(REQUESTS);
    const reports = lines().filter((line) => line.dropped !== undefined);
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report).toMatchObject({
        level: 40,
        msg: `${report.dropped} log lines were dropped: stdout was not being read and 0.25 MB were waiting`,
      });
      expect(report.dropped).toBeGreaterThan(0);
      expect(report.requestId).toBeUndefined();
    }
  });
});
