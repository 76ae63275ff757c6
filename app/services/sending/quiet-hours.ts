import { regionOfPhone } from "./npa-regions";

/** A daily window in the recipient's local time, [start, end) in minutes after midnight. */
export type Window = { start: number; end: number };

const hours = (start: number, end: number): Window => ({ start: start * 60, end: end * 60 });

/**
 * Quiet hours for marketing texts (COMPLIANCE.md §1.8): federal 08:00-21:00; FL, OK, MD and WA
 * 08:00-20:00; CT 09:00-20:00; TX Mon-Sat 09:00-21:00 and Sunday 12:00-21:00. A number whose
 * state we cannot tell gets the window that satisfies every confirmed row: 09:00-20:00, Sunday
 * 12:00-20:00. `weekday` is 0 for Sunday.
 */
export function windowFor(state: string | null, weekday: number): Window {
  switch (state) {
    case null:
      return weekday === 0 ? hours(12, 20) : hours(9, 20);
    case "FL":
    case "OK":
    case "MD":
    case "WA":
      return hours(8, 20);
    case "CT":
      return hours(9, 20);
    case "TX":
      return weekday === 0 ? hours(12, 21) : hours(9, 21);
    default:
      return hours(8, 21);
  }
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Weekday and minutes after midnight of an instant in a time zone. */
export function localTime(instant: Date, zone: string) {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return { weekday: WEEKDAYS[parts.weekday!]!, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Where we assume the person is: the area code's state and every zone it spans (unknown: Eastern to Pacific). */
export function recipientLocation(e164: string) {
  const region = regionOfPhone(e164);
  if (region) return region;
  return { state: null, zones: ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"] };
}

export function insideWindow(instant: Date, location: { state: string | null; zones: string[] }) {
  return location.zones.every((zone) => {
    const local = localTime(instant, zone);
    const window = windowFor(location.state, local.weekday);
    return local.minutes >= window.start && local.minutes < window.end;
  });
}

const HOUR_MS = 3_600_000;

/**
 * The first instant at or after `from` inside the window in every zone. US zones are whole hours
 * from UTC and every window opens on the hour, so the answer is `from` itself or a whole UTC hour.
 */
export function nextAllowedTime(from: Date, location: { state: string | null; zones: string[] }): Date {
  if (insideWindow(from, location)) return from;
  const firstHour = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS;
  for (let hour = 0; hour < 24 * 8; hour++) {
    const candidate = new Date(firstHour + hour * HOUR_MS);
    if (insideWindow(candidate, location)) return candidate;
  }
  // Unreachable with the windows above (each is open every day); never send rather than guess.
  throw new Error(`no allowed sending time within 8 days for ${JSON.stringify(location)}`);
}
