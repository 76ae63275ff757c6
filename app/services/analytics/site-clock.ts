/**
 * The day and hour of a moment in the site's time zone (ANALYTICS_TIME_ZONE), for the rollups.
 * Formatting a date in a zone costs a microsecond or two; a page view asks for it on every count,
 * so the answer is kept for the rest of its local hour and a view costs two comparisons.
 */
export type SiteHour = {
  /** The local day, YYYY-MM-DD. */
  day: string;
  /** The instant the local hour began, ISO 8601 in UTC: the key of the hourly rollup. */
  hour: string;
  /** [from, until): the milliseconds this answer holds for. */
  from: number;
  until: number;
};

const HOUR_MS = 3_600_000;

export function createSiteClock(zone: string) {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  let current: SiteHour | undefined;
  const compute = (now: number): SiteHour => {
    const parts: Record<string, string> = {};
    for (const part of format.formatToParts(now)) parts[part.type] = part.value;
    // The local hour began this many minutes and seconds ago, whatever the zone's offset (a
    // half-hour daylight-saving shift, Lord Howe Island's, is the one case it misplaces).
    const from = now - (Number(parts.minute) * 60 + Number(parts.second)) * 1000 - (now % 1000);
    return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: new Date(from).toISOString(), from, until: from + HOUR_MS };
  };
  return (now: number = Date.now()): SiteHour => {
    if (current && now >= current.from && now < current.until) return current;
    current = compute(now);
    return current;
  };
}

/** Whether `zone` is a time zone this runtime knows (an IANA name such as America/New_York). */
export function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The day before `day` (YYYY-MM-DD), as a calendar date. */
export function dayBefore(day: string, days = 1) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}
