/** Time zones an admin may schedule a campaign in. */
export const SCHEDULE_ZONES = [
  { zone: "America/New_York", label: "Eastern (New York)" },
  { zone: "America/Chicago", label: "Central (Chicago)" },
  { zone: "America/Denver", label: "Mountain (Denver)" },
  { zone: "America/Phoenix", label: "Arizona (Phoenix)" },
  { zone: "America/Los_Angeles", label: "Pacific (Los Angeles)" },
  { zone: "America/Anchorage", label: "Alaska (Anchorage)" },
  { zone: "Pacific/Honolulu", label: "Hawaii (Honolulu)" },
  { zone: "UTC", label: "UTC" },
] as const;

/** Wall-clock parts of an instant in a named time zone. */
function wallClock(instant: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

export function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant at which a wall clock in `zone` shows `local` ("YYYY-MM-DDTHH:MM", the value of a
 * datetime-local input). Null for a malformed value, an unknown zone, or a time that does not
 * exist there (skipped by the spring clock change).
 */
export function zonedTimeToUtc(local: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match || !isTimeZone(zone)) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59) return null;
  const wanted = Date.UTC(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) ? 0 : s!);
  if (Number.isNaN(wanted) || new Date(wanted).getUTCDate() !== d) return null;
  // Two passes settle the offset across a clock change.
  let instant = wanted - (wallClock(wanted, zone) - wanted);
  instant = wanted - (wallClock(instant, zone) - instant);
  return wallClock(instant, zone) === wanted ? new Date(instant) : null;
}

/** "2026-11-24 09:30 EST" in the given zone. */
export function formatInZone(instant: Date, zone: string) {
  return new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(instant);
}
