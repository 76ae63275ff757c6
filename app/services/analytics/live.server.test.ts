import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createFlusher } from "./flusher.server";
import { LIVE_MINUTES } from "./live";
import { liveFigures } from "./live.server";
import { createRecorder } from "./recorder";
import { createRollupWriter } from "./rollup-writer.server";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";
const headers = (userAgent = CHROME) => ({
  host: "patriotinvestor.example",
  "user-agent": userAgent,
  "accept-language": "en-US",
  "sec-fetch-mode": "navigate",
});
const SITE = "https://patriotinvestor.example";
const ZONE = "America/New_York";

/** A process's counting side on the shared database, at a clock the test moves. */
function processOn(db: Db, start: string) {
  const clock = { now: Date.parse(start) };
  const recorder = createRecorder({
    timeZone: ZONE,
    viewsPerMinute: 1000,
    ownHosts: ["patriotinvestor.example"],
    now: () => clock.now,
  });
  const writer = createRollupWriter(db);
  const flusher = createFlusher({ recorder, writer, salts: writer, site: SITE, now: () => clock.now });
  return { recorder, flusher, clock };
}

async function minutes(db: Db) {
  const result = await db.execute<{ minute: string; path: string; views: unknown }>(sql`
    SELECT to_char(minute AT TIME ZONE 'UTC', 'HH24:MI') AS minute, path, views FROM analytics_minutes ORDER BY minute, path`);
  return result.rows.map((row) => [row.minute, row.path, toNumber(row.views)]);
}

async function count(db: Db, table: string) {
  const result = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`);
  return toNumber(result.rows[0]?.n);
}

describe.each(DB_KINDS)("the last 30 minutes on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("adds up two processes' flushes by minute and path, people only, each visitor once over the 30 minutes", async () => {
    const { db } = database;
    const a = processOn(db, "2026-03-02T20:20:10Z");
    const b = processOn(db, "2026-03-02T20:20:40Z");
    for (let i = 0; i < 3; i++) a.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.9");
    a.recorder.count({ path: "/opt-in", query: "" }, headers(), "203.0.113.9");
    // The same person (same /24, same browser) on the other process, someone else, and a bot.
    b.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.77");
    b.recorder.count({ path: "/blog", query: "" }, headers(FIREFOX), "198.51.100.4");
    b.recorder.count({ path: "/blog", query: "" }, headers("curl/8.5.0"), "198.51.100.5");
    await a.flusher.flush();
    await b.flusher.flush();
    // The next minute, the first person again, in two flushes of one process.
    a.clock.now = Date.parse("2026-03-02T20:21:30Z");
    a.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.9");
    await a.flusher.flush();
    a.recorder.count({ path: "/blog", query: "" }, headers(), "203.0.113.9");
    await a.flusher.flush();
    // Forty minutes before: outside the window.
    const early = processOn(db, "2026-03-02T19:40:00Z");
    early.recorder.count({ path: "/old", query: "" }, headers(FIREFOX), "192.0.2.1");
    await early.flusher.flush();

    expect(await minutes(db)).toEqual([
      ["19:40", "/old", 1],
      ["20:20", "/blog", 5],
      ["20:20", "/opt-in", 1],
      ["20:21", "/blog", 2],
    ]);
    // Visitors by minute: the first person in both minutes, the second in one, the early one.
    expect(await count(db, "analytics_minute_visitors")).toBe(4);

    const live = await liveFigures(db, { timeZone: ZONE, flushSeconds: 5, now: Date.parse("2026-03-02T20:22:05Z") });
    expect(live).toMatchObject({
      views: 8,
      visitors: 2,
      flushSeconds: 5,
      atLabel: "15:22:05",
      pages: [
        { path: "/blog", views: 7 },
        { path: "/opt-in", views: 1 },
      ],
    });
    expect(live.minutes).toHaveLength(LIVE_MINUTES);
    expect(live.minutes[0]).toEqual({ minute: "2026-03-02T19:53:00.000Z", label: "14:53", views: 0 });
    expect(live.minutes.slice(-3).map((row) => [row.label, row.views])).toEqual([
      ["15:20", 6],
      ["15:21", 2],
      ["15:22", 0],
    ]);
  });

  it("deletes minutes and their visitors at the hourly prune, so none lives past two hours", async () => {
    const { db } = database;
    await db.execute(sql`DELETE FROM analytics_minutes`);
    await db.execute(sql`DELETE FROM analytics_minute_visitors`);
    const { recorder, flusher, clock } = processOn(db, "2026-03-05T15:00:00Z");
    recorder.count({ path: "/a", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    expect(await count(db, "analytics_minutes")).toBe(1);
    clock.now += 61 * 60_000;
    recorder.count({ path: "/b", query: "" }, headers(), "203.0.113.9");
    await flusher.flush();
    expect(await minutes(db)).toEqual([["16:01", "/b", 1]]);
    const left = await db.execute<{ minute: string }>(
      sql`SELECT to_char(minute AT TIME ZONE 'UTC', 'HH24:MI') AS minute FROM analytics_minute_visitors`,
    );
    expect(left.rows.map((row) => row.minute)).toEqual(["16:01"]);
  });
});
