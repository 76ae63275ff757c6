/**
 * The seam between counting and storage (issue 34 item 10, decision 145): the flush hands one
 * interval's counts to an AnalyticsWriter and knows nothing else of where they go. The rollup
 * writer on PostgreSQL/PGlite (rollup-writer.server.ts) is the only adapter; an analytics engine
 * (ClickHouse, TimescaleDB) would be another, without touching the request path or the flush.
 */

/** One view signature of the interval and how many views had it. */
export type ViewRow = {
  day: string;
  hour: string;
  path: string;
  channel: string;
  referrer: string;
  source: string;
  medium: string;
  campaign: string;
  clickIds: string[];
  /** sub1…sub5, "" where absent. */
  subs: string[];
  device: string;
  views: number;
};

export type ExcludedRow = { day: string; hour: string; reason: string; views: number };

/** A visitor seen on `day` (hex HMAC), on `path`, or on the site when path is "". */
export type VisitorRow = { day: string; path: string; visitor: string };

/** A visitor's entry of the day (decision 149), kept with the day's visitor hashes and deleted with them. */
export type EntryRow = {
  day: string;
  /** Hex HMAC, as in VisitorRow. */
  visitor: string;
  /** ISO instant of the entry view. */
  at: string;
  path: string;
  channel: string;
  referrer: string;
  source: string;
  medium: string;
  campaign: string;
  clickIds: string[];
  subs: string[];
};

/** Human views of one minute (ISO instant of its start) on one path (decision 156). */
export type MinuteRow = { minute: string; path: string; views: number };

/** A visitor (hex HMAC of their day, as in VisitorRow) seen in a minute, on any path. */
export type MinuteVisitorRow = { minute: string; visitor: string };

export type Flush = {
  /** Unique per flush attempt: a writer that cannot tell whether a write went through is asked by it. */
  id: string;
  views: ViewRow[];
  excluded: ExcludedRow[];
  visitors: VisitorRow[];
  entries: EntryRow[];
  minutes: MinuteRow[];
  minuteVisitors: MinuteVisitorRow[];
};

export interface AnalyticsWriter {
  /** Writes the whole flush or nothing. */
  write(flush: Flush): Promise<void>;
  /** Whether the flush with this id was written (its write failed on the way back, after the commit). */
  wasWritten(id: string): Promise<boolean>;
  /**
   * Removes what is kept only for a while: hours before `hoursFrom`, visitor data of days before
   * `daysFrom`, minutes (and their visitors) before `minutesFrom`.
   */
  prune?(limits: { daysFrom: string; hoursFrom: Date; minutesFrom: Date }): Promise<void>;
}

/** The random key of each day's visitor hashes, shared by every process. */
export interface VisitorSalts {
  saltFor(day: string): Promise<Buffer>;
}
