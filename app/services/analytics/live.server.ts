import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { LIVE_MINUTES, LIVE_TOP_PAGES } from "./live";

export type LiveMinute = { minute: string; label: string; views: number };

export type LiveFigures = {
  /** When the figures were read (ISO) and that moment as the site's clock shows it (HH:MM:SS). */
  at: string;
  atLabel: string;
  /** Counts reach the database once per flush, so the figures lag by at most this much. */
  flushSeconds: number;
  views: number;
  /** Distinct visitors over the window: a visitor seen in several minutes counts once. */
  visitors: number;
  /** Every minute of the window, oldest first, the current (partial) one last; none left out. */
  minutes: LiveMinute[];
  pages: { path: string; views: number }[];
};

/**
 * The last LIVE_MINUTES minutes of human views from the minute rollups (decision 156), summed over
 * every process that flushed them. Labels are the site's clock (ANALYTICS_TIME_ZONE), made here
 * so the page renders the same text on the server and in the browser.
 */
export async function liveFigures(
  db: Db,
  options: { timeZone: string; flushSeconds: number; now?: number },
): Promise<LiveFigures> {
  const now = options.now ?? Date.now();
  const current = now - (now % 60_000);
  const from = new Date(current - (LIVE_MINUTES - 1) * 60_000).toISOString();
  const perMinute = await db.execute<{ minute: string; views: unknown }>(sql`
    SELECT to_char(minute AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS minute, sum(views) AS views
    FROM analytics_minutes WHERE minute >= ${from}::timestamptz GROUP BY minute`);
  const visitors = await db.execute<{ n: unknown }>(
    sql`SELECT count(DISTINCT visitor) AS n FROM analytics_minute_visitors WHERE minute >= ${from}::timestamptz`,
  );
  const pages = await db.execute<{ path: string; views: unknown }>(sql`
    SELECT path, sum(views) AS views FROM analytics_minutes WHERE minute >= ${from}::timestamptz
    GROUP BY path ORDER BY sum(views) DESC, path LIMIT ${LIVE_TOP_PAGES}`);
  const found = new Map(perMinute.rows.map((row) => [row.minute, toNumber(row.views)]));
  const clock = new Intl.DateTimeFormat("en-US", {
    timeZone: options.timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const seconds = new Intl.DateTimeFormat("en-US", {
    timeZone: options.timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const minutes: LiveMinute[] = [];
  for (let index = 0; index < LIVE_MINUTES; index++) {
    const at = current - (LIVE_MINUTES - 1 - index) * 60_000;
    const minute = new Date(at).toISOString();
    minutes.push({ minute, label: clock.format(at), views: found.get(minute) ?? 0 });
  }
  return {
    at: new Date(now).toISOString(),
    atLabel: seconds.format(now),
    flushSeconds: options.flushSeconds,
    views: minutes.reduce((sum, row) => sum + row.views, 0),
    visitors: toNumber(visitors.rows[0]?.n),
    minutes,
    pages: pages.rows.map((row) => ({ path: row.path, views: toNumber(row.views) })),
  };
}
