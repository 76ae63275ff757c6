import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rollupRows } from "./rollups";
import { newSalt } from "./visitor.server";
import type { AnalyticsWriter, Flush, VisitorSalts } from "./writer";

/**
 * The rollup writer on the app's database (PostgreSQL or PGlite): one transaction per flush, one
 * upsert per rollup table (rows passed as one JSON parameter), the visitors inserted if new and
 * counted from what the insert returned, and the flush's id recorded so a lost answer is not
 * written twice (flusher.server.ts). Rows go in key order, so processes flushing at once lock
 * shared rows in the same order and wait for each other instead of deadlocking.
 */
export function createRollupWriter(db: Db): AnalyticsWriter & VisitorSalts {
  return {
    async write(flush: Flush) {
      const daily = rollupRows(flush.views, flush.excluded, "day");
      const hourly = rollupRows(flush.views, flush.excluded, "hour");
      await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO analytics_flushes (id) VALUES (${flush.id})`);
        // New visitors of the day (site-wide: path "") and of each path, added to `visitors` of
        // the rows `all` and `path` in the same upsert as the views.
        await tx.execute(sql`
          WITH fresh AS (
            INSERT INTO analytics_visitors (day, path, visitor)
            SELECT v.day, v.path, decode(v.visitor, 'hex')
            FROM json_to_recordset(${JSON.stringify(flush.visitors)}::json) AS v(day date, path text, visitor text)
            ORDER BY 1, 2, 3
            ON CONFLICT DO NOTHING
            RETURNING day, path),
          counted AS (
            SELECT day, CASE WHEN path = '' THEN 'all' ELSE 'path' END AS dimension, path AS value, 0::bigint AS views, count(*)::bigint AS visitors
            FROM fresh GROUP BY day, path
            UNION ALL
            SELECT r.period, r.dimension, r.value, r.views, 0::bigint
            FROM json_to_recordset(${JSON.stringify(daily)}::json) AS r(period date, dimension text, value text, views bigint))
          INSERT INTO analytics_daily (day, dimension, value, views, visitors)
          SELECT day, dimension, value, sum(views)::bigint, sum(visitors)::bigint FROM counted GROUP BY day, dimension, value ORDER BY 1, 2, 3
          ON CONFLICT (day, dimension, value) DO UPDATE
            SET views = analytics_daily.views + EXCLUDED.views, visitors = analytics_daily.visitors + EXCLUDED.visitors`);
        if (flush.entries.length > 0) {
          // The visit's entry: the earliest that came from somewhere, else the earliest direct one,
          // whichever process saw it first (replacesEntry in recorder.ts is the same rule).
          await tx.execute(sql`
            INSERT INTO analytics_visit_entries (day, visitor, at, path, channel, referrer, source, medium, campaign, click_ids, sub1, sub2, sub3, sub4, sub5)
            SELECT r.day, decode(r.visitor, 'hex'), r.at, r.path, r.channel, r.referrer, r.source, r.medium, r.campaign, array_to_string(ARRAY(SELECT json_array_elements_text(r."clickIds")), ','),
              r.subs->>0, r.subs->>1, r.subs->>2, r.subs->>3, r.subs->>4
            FROM json_to_recordset(${JSON.stringify(flush.entries)}::json)
              AS r(day date, visitor text, at timestamptz, path text, channel text, referrer text, source text, medium text, campaign text, "clickIds" json, subs json)
            ORDER BY 1, 2
            ON CONFLICT (day, visitor) DO UPDATE
              SET at = EXCLUDED.at, path = EXCLUDED.path, channel = EXCLUDED.channel, referrer = EXCLUDED.referrer, source = EXCLUDED.source,
                medium = EXCLUDED.medium, campaign = EXCLUDED.campaign, click_ids = EXCLUDED.click_ids,
                sub1 = EXCLUDED.sub1, sub2 = EXCLUDED.sub2, sub3 = EXCLUDED.sub3, sub4 = EXCLUDED.sub4, sub5 = EXCLUDED.sub5
              WHERE CASE WHEN (analytics_visit_entries.channel = 'direct') <> (EXCLUDED.channel = 'direct') THEN EXCLUDED.channel <> 'direct'
                ELSE EXCLUDED.at < analytics_visit_entries.at END`);
        }
        if (hourly.length > 0) {
          await tx.execute(sql`
            INSERT INTO analytics_hourly (hour, dimension, value, views)
            SELECT r.period, r.dimension, r.value, r.views
            FROM json_to_recordset(${JSON.stringify(hourly)}::json) AS r(period timestamptz, dimension text, value text, views bigint)
            ORDER BY 1, 2, 3
            ON CONFLICT (hour, dimension, value) DO UPDATE SET views = analytics_hourly.views + EXCLUDED.views`);
        }
        // The last 30 minutes (decision 156): views summed by minute and path across processes,
        // and each visitor once per minute (their day's hash, no path).
        if (flush.minutes.length > 0) {
          await tx.execute(sql`
            INSERT INTO analytics_minutes (minute, path, views)
            SELECT r.minute, r.path, r.views
            FROM json_to_recordset(${JSON.stringify(flush.minutes)}::json) AS r(minute timestamptz, path text, views bigint)
            ORDER BY 1, 2
            ON CONFLICT (minute, path) DO UPDATE SET views = analytics_minutes.views + EXCLUDED.views`);
        }
        if (flush.minuteVisitors.length > 0) {
          await tx.execute(sql`
            INSERT INTO analytics_minute_visitors (minute, visitor)
            SELECT r.minute, decode(r.visitor, 'hex')
            FROM json_to_recordset(${JSON.stringify(flush.minuteVisitors)}::json) AS r(minute timestamptz, visitor text)
            ORDER BY 1, 2
            ON CONFLICT DO NOTHING`);
        }
      });
    },

    async wasWritten(id: string) {
      const result = await db.execute(sql`SELECT 1 AS found FROM analytics_flushes WHERE id = ${id}`);
      return result.rows.length > 0;
    },

    async prune({ daysFrom, hoursFrom, minutesFrom }) {
      await db.execute(sql`DELETE FROM analytics_minutes WHERE minute < ${minutesFrom.toISOString()}::timestamptz`);
      await db.execute(sql`DELETE FROM analytics_minute_visitors WHERE minute < ${minutesFrom.toISOString()}::timestamptz`);
      await db.execute(sql`DELETE FROM analytics_hourly WHERE hour < ${hoursFrom.toISOString()}::timestamptz`);
      await db.execute(sql`DELETE FROM analytics_visitors WHERE day < ${daysFrom}::date`);
      await db.execute(sql`DELETE FROM analytics_visit_entries WHERE day < ${daysFrom}::date`);
      await db.execute(sql`DELETE FROM analytics_salts WHERE day < ${daysFrom}::date`);
      await db.execute(sql`DELETE FROM analytics_flushes WHERE flushed_at < ${hoursFrom.toISOString()}::timestamptz`);
    },

    // Created by the first process that needs it; the others read the same row (insert-if-absent,
    // then read: a read in the inserting statement would not see a row another process just added).
    async saltFor(day: string) {
      await db.execute(sql`INSERT INTO analytics_salts (day, salt) VALUES (${day}::date, decode(${newSalt().toString("hex")}, 'hex')) ON CONFLICT (day) DO NOTHING`);
      const result = await db.execute<{ salt: string }>(sql`SELECT encode(salt, 'hex') AS salt FROM analytics_salts WHERE day = ${day}::date`);
      const salt = result.rows[0]?.salt;
      if (!salt) throw new Error(`no analytics salt for ${day}`);
      return Buffer.from(salt, "hex");
    },
  };
}
