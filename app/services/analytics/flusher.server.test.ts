import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createFlusher, startAnalyticsFlusher } from "./flusher.server";
import { createRecorder } from "./recorder";
import { createRollupWriter } from "./rollup-writer.server";
import type { AnalyticsWriter } from "./writer";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";
const headers = (userAgent = CHROME, extra: Record<string, string> = {}) => ({ host: "patriotinvestor.example", "user-agent": userAgent, "accept-language": "en-US", "sec-fetch-mode": "navigate", ...extra });
const SITE = "https://patriotinvestor.example";
const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** A process's counting side: its own recorder and flusher on the shared database, at a clock the test moves. */
function processOn(db: Db, writer: AnalyticsWriter = createRollupWriter(db), start = Date.parse("2026-03-02T20:20:00Z")) {
  const clock = { now: start };
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1000, ownHosts: ["patriotinvestor.example"], now: () => clock.now });
  const flusher = createFlusher({ recorder, writer, salts: createRollupWriter(db), site: SITE, now: () => clock.now });
  return { recorder, flusher, clock };
}

async function daily(db: Db, day = "2026-03-02") {
  const result = await db.execute<{ dimension: string; value: string; views: unknown; visitors: unknown }>(
    sql`SELECT dimension, value, views, visitors FROM analytics_daily WHERE day = ${day}::date ORDER BY dimension, value`,
  );
  return Object.fromEntries(result.rows.map((row) => [`${row.dimension}:${row.value}`, [toNumber(row.views), toNumber(row.visitors)]]));
}

async function clear(db: Db) {
  for (const table of ["analytics_daily", "analytics_hourly", "analytics_visitors", "analytics_visit_entries", "analytics_salts"]) await db.execute(sql`DELETE FROM ${sql.raw(table)}`);
}

async function count(db: Db, table: string) {
  const result = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`);
  return toNumber(result.rows[0]?.n);
}

describe.each(DB_KINDS)("analytics flushes on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("adds up the flushes of two processes, with each visitor counted once whichever process saw them", async () => {
    const { db } = database;
    const a = processOn(db);
    const b = processOn(db);
    for (let i = 0; i < 3; i++) a.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.9");
    a.recorder.count({ path: "/opt-in", query: "sub2=c1&utm_source=fb&utm_medium=cpc&utm_campaign=spring" }, headers(), "203.0.113.9");
    // The same person (same /24, same browser) on the other process, and someone else.
    b.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.77");
    b.recorder.count({ path: "/blog", query: "" }, headers(FIREFOX, { referer: "https://www.google.com/" }), "198.51.100.4");
    b.recorder.count({ path: "/blog", query: "" }, headers("curl/8.5.0"), "198.51.100.5");
    expect(await a.flusher.flush()).toEqual({ views: 4, excluded: 0, visitors: 1 });
    expect(await b.flusher.flush()).toEqual({ views: 2, excluded: 1, visitors: 2 });
    expect(await daily(db)).toMatchObject({
      "all:": [6, 2],
      "path:/blog": [5, 2],
      "path:/opt-in": [1, 1],
      "channel:direct": [4, 0],
      "channel:paid": [1, 0],
      "channel:search": [1, 0],
      "referrer:google.com": [1, 0],
      "sub2:c1": [1, 0],
      'utm:["fb","cpc","spring"]': [1, 0],
      'landing:["/opt-in","paid"]': [1, 0],
      "device:desktop": [6, 0],
      "excluded:bot-list": [1, 0],
    });
    const hourly = await db.execute<{ views: unknown }>(sql`SELECT views FROM analytics_hourly WHERE dimension = 'all' AND hour = '2026-03-02T20:00:00Z'::timestamptz`);
    expect(toNumber(hourly.rows[0]?.views)).toBe(6);
    // One salt for the day, shared; the hashes are the only trace of the visitors.
    expect(await count(db, "analytics_salts")).toBe(1);
    const stored = await db.execute<{ visitor: unknown }>(sql`SELECT encode(visitor, 'hex') AS visitor FROM analytics_visitors`);
    expect(stored.rows.every((row) => /^[0-9a-f]{32}$/.test(String(row.visitor)))).toBe(true);
    await clear(db);
  });

  it("merges a failed flush into the next: nothing dropped, nothing doubled", async () => {
    const { db } = database;
    const real = createRollupWriter(db);
    let failNext = true;
    const flaky: AnalyticsWriter = {
      ...real,
      write: async (flush) => {
        if (failNext) {
          failNext = false;
          throw new Error("connection reset");
        }
        return real.write(flush);
      },
    };
    const { recorder, flusher } = processOn(db, flaky);
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    recorder.count({ path: "/a", query: "" }, headers("curl/8.5.0"), "203.0.113.9");
    await expect(flusher.flush()).rejects.toThrow("connection reset");
    expect(await count(db, "analytics_daily")).toBe(0);
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    recorder.count({ path: "/b", query: "" }, headers(FIREFOX), "198.51.100.4");
    expect(await flusher.flush()).toEqual({ views: 3, excluded: 1, visitors: 2 });
    expect(await daily(db)).toMatchObject({ "all:": [3, 2], "path:/a": [2, 1], "path:/b": [1, 1], "excluded:bot-list": [1, 0] });
    expect(await flusher.flush()).toEqual({ views: 0, excluded: 0, visitors: 0 });
    expect((await daily(db))["all:"]).toEqual([3, 2]);
    await clear(db);
  });

  it("does not count twice a flush that was written although its answer was lost", async () => {
    const { db } = database;
    const real = createRollupWriter(db);
    let loseNextAnswer = true;
    const lossy: AnalyticsWriter = {
      ...real,
      write: async (flush) => {
        await real.write(flush);
        if (loseNextAnswer) {
          loseNextAnswer = false;
          throw new Error("connection lost after the commit");
        }
      },
    };
    const { recorder, flusher } = processOn(db, lossy);
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    recorder.count({ path: "/a", query: "" }, headers("curl/8.5.0"), "203.0.113.9");
    await expect(flusher.flush()).rejects.toThrow("after the commit");
    expect((await daily(db))["all:"]).toEqual([1, 1]);
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    expect(await daily(db)).toMatchObject({ "all:": [2, 1], "path:/a": [2, 1], "excluded:bot-list": [1, 0] });
    await clear(db);
  });

  it("uses a new salt each day, and deletes salts, visitor hashes, visit entries and hours after 48 hours while the daily counts stay", async () => {
    const { db } = database;
    const { recorder, flusher, clock } = processOn(db, undefined, Date.parse("2026-03-05T15:00:00Z"));
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    // The same person the next day is a new visitor of that day, under another salt.
    clock.now += 24 * 3_600_000;
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    const salts = await db.execute<{ day: string; salt: string }>(sql`SELECT day::text AS day, encode(salt, 'hex') AS salt FROM analytics_salts ORDER BY day`);
    expect(salts.rows.map((row) => row.day)).toEqual(["2026-03-05", "2026-03-06"]);
    expect(salts.rows[0]!.salt).not.toBe(salts.rows[1]!.salt);
    const hashes = await db.execute<{ visitor: string }>(sql`SELECT DISTINCT encode(visitor, 'hex') AS visitor FROM analytics_visitors`);
    expect(hashes.rows).toHaveLength(2);
    // Two days on (and the hourly prune due), the 5th's salt and hashes are gone; its counts stay.
    clock.now += 48 * 3_600_000;
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    const left = await db.execute<{ day: string }>(sql`SELECT day::text AS day FROM analytics_salts ORDER BY day`);
    expect(left.rows.map((row) => row.day)).toEqual(["2026-03-08"]);
    const visitorDays = await db.execute<{ day: string }>(sql`SELECT DISTINCT day::text AS day FROM analytics_visitors ORDER BY day`);
    expect(visitorDays.rows.map((row) => row.day)).toEqual(["2026-03-08"]);
    // The visits' entries, keyed by the same hashes, go with them.
    const entryDays = await db.execute<{ day: string }>(sql`SELECT day::text AS day FROM analytics_visit_entries ORDER BY day`);
    expect(entryDays.rows.map((row) => row.day)).toEqual(["2026-03-08"]);
    expect((await daily(db, "2026-03-05"))["all:"]).toEqual([1, 1]);
    const oldHours = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM analytics_hourly WHERE hour < '2026-03-06T15:00:00Z'::timestamptz`);
    expect(toNumber(oldHours.rows[0]?.n)).toBe(0);
  });

  it("writes what is held when it stops", async () => {
    const { db } = database;
    await clear(db);
    const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 60, ownHosts: [] });
    const writer = createRollupWriter(db);
    const job = startAnalyticsFlusher({ recorder, writer, salts: writer, site: SITE, logger: silent, intervalMs: 3_600_000 });
    await job.runOnce();
    recorder.count({ path: "/stop", query: "" }, headers(), "203.0.113.9");
    await job.stop();
    const result = await db.execute<{ views: unknown }>(sql`SELECT sum(views) AS views FROM analytics_daily WHERE dimension = 'path' AND value = '/stop'`);
    expect(toNumber(result.rows[0]?.views)).toBe(1);
    expect(recorder.held()).toEqual({ views: 0, excluded: 0, visitors: 0 });
  });
});
