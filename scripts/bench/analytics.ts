// npm run bench:analytics — what counting page views costs (issue 34, decision 141):
// 1. the request path: viewTarget + recorder.count per answer, over a realistic mix of pages,
//    browsers, bots, referrers and ad parameters (median of runs, nanoseconds per request);
// 2. one flush of 6,000 view signatures (and their visitors) on PGlite and on PostgreSQL.
// Prints Markdown for docs/benchmarks.md.
import type { IncomingMessage } from "node:http";
import { sql } from "drizzle-orm";
import { createFlusher } from "~/services/analytics/flusher.server";
import { createRecorder } from "~/services/analytics/recorder";
import { createRollupWriter } from "~/services/analytics/rollup-writer.server";
import { analyticsReport } from "~/services/analytics/reports.server";
import { createViewCounter } from "../../server/analytics";
import { openTestDatabase } from "../../tests/support/test-db";

const RUNS = 15;
const PER_RUN = 200_000;

const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:134.0) Gecko/20100101 Firefox/134.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
];
const BOTS = ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "facebookexternalhit/1.1", "curl/8.5.0"];
const REFERRERS = [undefined, "https://www.google.com/", "https://m.facebook.com/", "https://patriotinvestor.example/blog", "https://mail.google.com/", "https://www.kitco.com/news"];
const URLS = [
  "/",
  "/blog",
  "/about",
  "/articles/bonds-guide",
  "/articles/generational-wealth",
  "/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=cl1ck-4d-7f3a9e&utm_source=fb&utm_medium=cpc&utm_campaign=spring",
  "/articles/gold-ira?utm_source=newsletter&utm_medium=email&utm_campaign=weekly-42",
  "/home?gclid=Cj0KCQiA&utm_source=google&utm_medium=cpc",
];

/** 4,000 requests as node:http hands them over: browsers mostly, some bots, from 1,000 networks. */
function requests() {
  return Array.from({ length: 4_000 }, (_, i) => {
    const userAgent = i % 10 === 9 ? BOTS[i % BOTS.length]! : BROWSERS[i % BROWSERS.length]!;
    const referer = REFERRERS[i % REFERRERS.length];
    const headers: Record<string, string> = {
      host: "patriotinvestor.example",
      "user-agent": userAgent,
      accept: "text/html,application/xhtml+xml",
      "accept-language": "en-US,en;q=0.9",
      "accept-encoding": "gzip, deflate, br",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
      ...(referer ? { referer } : {}),
    };
    return { method: "GET", url: URLS[i % URLS.length]!, headers, socket: { remoteAddress: `198.${18 + (i % 2)}.${(i >> 2) & 255}.${i & 255}` } } as unknown as IncomingMessage;
  });
}

function hotPath() {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 60, ownHosts: ["patriotinvestor.example"] });
  const count = createViewCounter(recorder, 0)!;
  const mix = requests();
  const perRequest: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < PER_RUN; i++) count(mix[i % mix.length]!, 200, "text/html; charset=utf-8");
    perRequest.push(Number(process.hrtime.bigint() - started) / PER_RUN);
    recorder.take(); // a flush would take them every few seconds
  }
  // A non-page answer (an asset) that the same call must turn away at once.
  const asset = { method: "GET", url: "/assets/app-1234.js", headers: {}, socket: {} } as unknown as IncomingMessage;
  const assetStarted = process.hrtime.bigint();
  for (let i = 0; i < PER_RUN; i++) count(asset, 200, "text/javascript");
  const assetNs = Number(process.hrtime.bigint() - assetStarted) / PER_RUN;
  perRequest.sort((a, b) => a - b);
  return { median: perRequest[Math.floor(RUNS / 2)]!, min: perRequest[0]!, max: perRequest.at(-1)!, assetNs };
}

/** 6,000 distinct view signatures (paths × campaigns × hours) and 2,000 visitors in one flush. */
async function flushTime(kind: "pglite" | "postgres") {
  const database = await openTestDatabase(kind);
  try {
    const times: number[] = [];
    let keys = 0;
    for (let round = 0; round < 5; round++) {
      let now = Date.parse("2026-03-02T15:00:00Z");
      const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1_000_000, ownHosts: [], now: () => now });
      const writer = createRollupWriter(database.db);
      const flusher = createFlusher({ recorder, writer, salts: writer, site: "https://patriotinvestor.example", now: () => now });
      await flusher.flush(); // the day's salt and the first prune, outside the timing
      for (let i = 0; i < 6_000; i++) {
        now = Date.parse("2026-03-02T15:00:00Z") + (i % 6) * 3_600_000;
        recorder.count(
          { path: `/articles/a-${i % 1000}`, query: `utm_source=s${i % 5}&utm_campaign=c${Math.floor(i / 3000)}&sub1=p${round}` },
          { "user-agent": BROWSERS[0]!, "accept-language": "en", "sec-fetch-mode": "navigate" },
          `${10 + ((i % 2000) >> 8)}.${round}.${i & 255}.1`,
        );
      }
      const counts = recorder.take();
      keys = counts.views.size;
      recorder.putBack(counts);
      const started = performance.now();
      await flusher.flush();
      times.push(performance.now() - started);
    }
    const rows = await database.db.execute<{ n: string }>(sql`SELECT count(*)::text AS n FROM analytics_daily`);
    times.sort((a, b) => a - b);
    return { keys, median: times[2]!, worst: times[4]!, dailyRows: Number(rows.rows[0]!.n) };
  } finally {
    await database.drop();
  }
}

/**
 * A year of rollups at about a million views a day on PostgreSQL: per day 3,000 pages, the 8
 * channels, 600 referring sites, 300 campaigns, 400 sub-id values, 3,000 entry rows and the rest:
 * ~7,400 rows a day. Then /admin/analytics's queries for 30 days (admin: every table), p95 of 20.
 */
async function yearOfRollups() {
  const database = await openTestDatabase("postgres");
  try {
    const { db } = database;
    const seeding = performance.now();
    await db.execute(sql`
      INSERT INTO analytics_daily (dimension, day, value, views, visitors)
      SELECT d.dimension, day::date, CASE WHEN d.dimension = 'all' THEN '' ELSE d.dimension || '-' || n END, (1 + (n * 7919) % 5000), (1 + (n * 104729) % 3000)
      FROM generate_series(current_date - 364, current_date, interval '1 day') AS day
      CROSS JOIN (VALUES ('path', 3000), ('landing', 3000), ('referrer', 600), ('utm', 300), ('source', 60), ('medium', 12), ('campaign', 300),
                         ('sub1', 200), ('sub2', 200), ('channel', 8), ('device', 3), ('click-id', 6), ('excluded', 8), ('all', 1)) AS d(dimension, values_per_day)
      CROSS JOIN LATERAL generate_series(1, d.values_per_day) AS n`);
    await db.execute(sql`ANALYZE analytics_daily`);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const size = await db.execute<{ rows: string; bytes: string }>(sql`SELECT (SELECT count(*) FROM analytics_daily)::text AS rows, pg_total_relation_size('analytics_daily')::text AS bytes`);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const started = performance.now();
      await analyticsReport(db, { from, to }, { admin: true, timeZone: "America/New_York" });
      if (i > 0) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { rows: Number(size.rows[0]!.rows), bytes: Number(size.rows[0]!.bytes), seedSeconds, median: times[10]!, p95: times[18]! };
  } finally {
    await database.drop();
  }
}

const hot = hotPath();
const pglite = await flushTime("pglite");
const postgres = await flushTime("postgres");
const year = await yearOfRollups();
console.log(`## Page-view counting (\`npm run bench:analytics\`, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load ${(await import("node:os")).loadavg()[0]!.toFixed(1)})`);
console.log();
console.log(`| Measure | Result |`);
console.log(`|---|---|`);
console.log(`| request path per counted answer (viewTarget + recorder.count, 4,000-request mix, 10% bots, ${RUNS} runs of ${PER_RUN.toLocaleString("en-US")}) | median ${Math.round(hot.median)} ns (${Math.round(hot.min)}-${Math.round(hot.max)}) |`);
console.log(`| the same call for an answer that is not a page (asset) | ${Math.round(hot.assetNs)} ns |`);
console.log(`| one flush on PGlite: ${pglite.keys.toLocaleString("en-US")} view signatures → ${pglite.dailyRows.toLocaleString("en-US")} daily rows, 2,000 visitors | median ${pglite.median.toFixed(0)} ms, worst ${pglite.worst.toFixed(0)} ms of 5 |`);
console.log(`| one flush on PostgreSQL: same | median ${postgres.median.toFixed(0)} ms, worst ${postgres.worst.toFixed(0)} ms of 5 |`);
console.log(`| a year of daily rollups on PostgreSQL (~1,000,000 views a day: 3,000 pages, 600 referrers, 300 campaigns…) | ${year.rows.toLocaleString("en-US")} rows, ${(year.bytes / 1024 / 1024).toFixed(0)} MB with its index: ${(year.bytes / 12 / 1024 / 1024).toFixed(1)} MB a month |`);
console.log(`| /admin/analytics for 30 days on that year (every table, admin), 20 runs | median ${year.median.toFixed(1)} ms, p95 ${year.p95.toFixed(1)} ms |`);
