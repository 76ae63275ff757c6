import { randomUUID } from "node:crypto";
import { startJobLoop, type JobLogger } from "~/services/job-loop.server";
import { isEmpty, SEP, type Counts, type Recorder } from "./recorder";
import { MINUTES_KEPT_MS } from "./live";
import { dayBefore } from "./site-clock";
import { visitorHash } from "./visitor.server";
import type { AnalyticsWriter, Flush, VisitorSalts } from "./writer";

const PRUNE_EVERY_MS = 3_600_000;

export type FlusherOptions = {
  recorder: Recorder;
  writer: AnalyticsWriter;
  salts: VisitorSalts;
  /** The site's address: part of every visitor hash. */
  site: string;
  now?: () => number;
};

export type FlushResult = { views: number; excluded: number; visitors: number };

/** The interval's counts as the writer takes them; each visitor hashed with its day's salt. */
async function toFlush(id: string, counts: Counts, options: FlusherOptions, saltFor: (day: string) => Promise<Buffer>): Promise<Flush> {
  const views = [...counts.views].map(([key, count]) => {
    const [day, hour, path, channel, referrer, source, medium, campaign, clickIds, sub1, sub2, sub3, sub4, sub5, device] = key.split(SEP) as string[];
    return { day: day!, hour: hour!, path: path!, channel: channel!, referrer: referrer!, source: source!, medium: medium!, campaign: campaign!, clickIds: clickIds ? clickIds.split(",") : [], subs: [sub1!, sub2!, sub3!, sub4!, sub5!], device: device!, views: count };
  });
  const excluded = [...counts.excluded].map(([key, count]) => {
    const [day, hour, reason] = key.split(SEP) as [string, string, string];
    return { day, hour, reason, views: count };
  });
  // A day whose salt is gone (older than yesterday) can no longer be deduplicated: its views
  // still count, its visitors are dropped rather than counted again under a new salt.
  const oldest = dayBefore(options.recorder.siteHour().day, 1);
  const visitors: Flush["visitors"] = [];
  for (const [key, paths] of counts.visitors) {
    const [day = "", network = "", family = ""] = key.split(SEP);
    if (day < oldest) continue;
    const hash = visitorHash(await saltFor(day), options.site, network, family).toString("hex");
    visitors.push({ day, path: "", visitor: hash });
    for (const path of paths) visitors.push({ day, path, visitor: hash });
  }
  const entries: Flush["entries"] = [];
  for (const [key, entry] of counts.entries) {
    const [day = "", network = "", family = ""] = key.split(SEP);
    if (day < oldest) continue;
    const { at, ...rest } = entry;
    entries.push({ day, visitor: visitorHash(await saltFor(day), options.site, network, family).toString("hex"), at: new Date(at).toISOString(), ...rest });
  }
  const minutes = [...counts.minutes].map(([key, views]) => {
    const [minute = "", path = ""] = key.split(SEP);
    return { minute: new Date(Number(minute)).toISOString(), path, views };
  });
  const minuteVisitors: Flush["minuteVisitors"] = [];
  for (const key of counts.minuteVisitors) {
    const [minute = "", day = "", network = "", family = ""] = key.split(SEP);
    if (day < oldest) continue;
    minuteVisitors.push({ minute: new Date(Number(minute)).toISOString(), visitor: visitorHash(await saltFor(day), options.site, network, family).toString("hex") });
  }
  return { id, views, excluded, visitors, entries, minutes, minuteVisitors };
}

/**
 * Writes the recorder's counts through the writer, all or nothing per flush:
 * - a flush that fails puts its counts back, so the next flush writes them with its own (merged,
 *   never dropped);
 * - a failure can come after the database committed (the answer was lost): the next flush first
 *   asks the writer whether that flush's id was written, and if so takes its counts out again
 *   (never doubled).
 * Flushes never overlap (one at a time, from the job loop or the final one at stop).
 */
export function createFlusher(options: FlusherOptions) {
  const { recorder, writer } = options;
  const now = options.now ?? Date.now;
  const salts = new Map<string, Buffer>();
  let doubtful: { id: string; counts: Counts } | undefined;
  let lastPrune = 0;

  const saltFor = async (day: string) => {
    let salt = salts.get(day);
    if (!salt) {
      salt = await options.salts.saltFor(day);
      salts.set(day, salt);
    }
    return salt;
  };

  async function flush(): Promise<FlushResult> {
    if (doubtful) {
      if (await writer.wasWritten(doubtful.id)) recorder.subtract(doubtful.counts);
      doubtful = undefined;
    }
    const counts = recorder.take();
    const result = { views: 0, excluded: 0, visitors: 0 };
    if (!isEmpty(counts)) {
      let batch: Flush;
      try {
        batch = await toFlush(randomUUID(), counts, options, saltFor);
      } catch (error) {
        recorder.putBack(counts);
        throw error;
      }
      try {
        await writer.write(batch);
      } catch (error) {
        recorder.putBack(counts);
        doubtful = { id: batch.id, counts };
        throw error;
      }
      for (const row of batch.views) result.views += row.views;
      for (const row of batch.excluded) result.excluded += row.views;
      result.visitors = counts.visitors.size;
    }
    if (now() - lastPrune >= PRUNE_EVERY_MS) {
      const today = recorder.siteHour().day;
      const daysFrom = dayBefore(today, 1);
      await writer.prune?.({ daysFrom, hoursFrom: new Date(now() - 48 * 3_600_000), minutesFrom: new Date(now() - MINUTES_KEPT_MS) });
      for (const day of salts.keys()) if (day < daysFrom) salts.delete(day);
      lastPrune = now();
    }
    return result;
  }

  return { flush };
}

export type AnalyticsLogger = JobLogger;

/**
 * Flushes every `intervalMs` (ANALYTICS_FLUSH_SECONDS) and once more at `stop`, after the
 * server stopped taking requests (server/app.ts closes it first): a graceful stop loses nothing;
 * a kill loses at most the interval not yet flushed.
 */
export function startAnalyticsFlusher(options: FlusherOptions & { logger: AnalyticsLogger; intervalMs: number }) {
  const { logger, recorder } = options;
  const flusher = createFlusher(options);
  let failing = false;
  const attempt = async () => {
    try {
      await flusher.flush();
      if (failing) logger.info({ job: "analytics" }, "analytics counts written again");
      failing = false;
    } catch (error) {
      // Logged once per run of failures; the counts wait in memory and go with the next flush.
      if (!failing) logger.warn({ job: "analytics", err: error instanceof Error ? error.message : String(error), held: recorder.held() }, "could not write the analytics counts; they go with the next flush");
      failing = true;
    }
    return 0;
  };
  const loop = startJobLoop({ name: "analytics", drain: attempt, logger, pollMs: options.intervalMs });
  return {
    runOnce: loop.runOnce,
    stop: async () => {
      await loop.stop();
      try {
        await flusher.flush();
      } catch (error) {
        logger.error({ job: "analytics", err: error instanceof Error ? error.message : String(error), lost: recorder.held() }, "could not write the last analytics counts at stop; they are lost");
      }
    },
  };
}
