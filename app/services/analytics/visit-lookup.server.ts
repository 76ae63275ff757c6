import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { networkOf } from "./network";
import { visitorKey, type Recorder, type VisitEntry } from "./recorder";
import { dayBefore } from "./site-clock";
import { judgeUserAgent } from "./user-agent";
import { visitorHash } from "./visitor.server";

/** Finds the visit a subscription request belongs to (decision 149). */
export interface VisitLookup {
  /** `memoryOnly`: this process's memory, no I/O (when the form's page already says where the visit came from). */
  entryOf(ip: string | null, userAgent: string | null, options?: { memoryOnly?: boolean }): Promise<VisitEntry | undefined>;
}

export type VisitLookupOptions = {
  recorder: Recorder;
  db: () => Promise<Db> | Db;
  /** The site's address: part of every visitor hash (as the flusher takes it). */
  site: string;
};

type EntryRow = { at_ms: number | string; path: string; channel: string; referrer: string; source: string; medium: string; campaign: string; click_ids: string; sub1: string; sub2: string; sub3: string; sub4: string; sub5: string };

/**
 * The visitor's entry of today, else of yesterday (a visit that began before midnight): computed
 * as the recorder computes the visitor (network, browser family, local day), looked up first in
 * this process's memory (no I/O), then, under the day's salt, in analytics_visit_entries (the
 * entries every process flushed). A day without a salt has no entries: none is created here.
 */
export function createVisitLookup(options: VisitLookupOptions): VisitLookup {
  const { recorder } = options;
  const salts = new Map<string, Buffer>();

  async function saltsOf(db: Db, days: string[]) {
    for (const day of salts.keys()) if (!days.includes(day)) salts.delete(day);
    const missing = days.filter((day) => !salts.has(day));
    if (missing.length > 0) {
      const result = await db.execute<{ day: string; salt: string }>(
        sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, encode(salt, 'hex') AS salt FROM analytics_salts WHERE day IN (${sql.join(missing.map((day) => sql`${day}::date`), sql`, `)})`,
      );
      for (const row of result.rows) salts.set(row.day, Buffer.from(row.salt, "hex"));
    }
    return days.filter((day) => salts.has(day)).map((day) => ({ day, salt: salts.get(day)! }));
  }

  return {
    async entryOf(ip, userAgent, { memoryOnly = false } = {}) {
      const network = ip ? networkOf(ip) : undefined;
      if (!network) return undefined;
      const family = judgeUserAgent(userAgent ?? "").family;
      const today = recorder.siteHour().day;
      const days = [today, dayBefore(today, 1)];
      for (const day of days) {
        const entry = recorder.recentEntry(visitorKey(day, network, family));
        if (entry) return entry;
      }
      if (memoryOnly) return undefined;
      const db = await options.db();
      const keyed = await saltsOf(db, days);
      if (keyed.length === 0) return undefined;
      const matches = keyed.map(({ day, salt }) => sql`(day = ${day}::date AND visitor = decode(${visitorHash(salt, options.site, network, family).toString("hex")}, 'hex'))`);
      const result = await db.execute<EntryRow>(sql`
        SELECT (extract(epoch FROM at) * 1000)::float8 AS at_ms, path, channel, referrer, source, medium, campaign, click_ids, sub1, sub2, sub3, sub4, sub5
        FROM analytics_visit_entries WHERE ${sql.join(matches, sql` OR `)} ORDER BY day DESC LIMIT 1`);
      const row = result.rows[0];
      if (!row) return undefined;
      return {
        at: Number(row.at_ms),
        path: row.path,
        channel: row.channel,
        referrer: row.referrer,
        source: row.source,
        medium: row.medium,
        campaign: row.campaign,
        clickIds: row.click_ids ? row.click_ids.split(",") : [],
        subs: [row.sub1, row.sub2, row.sub3, row.sub4, row.sub5],
      };
    },
  };
}
