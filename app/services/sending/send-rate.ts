/**
 * The "now" rate's window. Sends are recorded a pass at a time (a pass every 0.2 s or more), so a
 * window of a few seconds holds many passes and follows a change of pace within seconds; the old
 * 60-second average still showed a third of the real rate a minute after a 20-second send.
 */
export const CURRENT_RATE_WINDOW_SECONDS = 5;

/** What the ledger says about a send's messages so far (times from the same clock as `now`). */
export type SendTimes = {
  now: Date;
  /** When the campaign started (its status became "sending"). */
  startedAt: Date | null;
  /** The latest message recorded as sent. */
  lastSentAt: Date | null;
  /** Messages sent in all. */
  sent: number;
  /** Messages sent within the last `CURRENT_RATE_WINDOW_SECONDS` before `now`. */
  sentInWindow: number;
};

export type SendRates = {
  /** Messages per second over the last few seconds; null when nothing has been sent yet. */
  current: number | null;
  /** Messages per second from the start to the latest message (over at least a second); null before the first. */
  average: number | null;
};

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * The send's current rate and its average over the whole send. A send that began less than a
 * window ago is counted over the time it has run, so its first seconds do not read as slow. The
 * average runs from the start to the latest message sent, so a finished send keeps the rate it was
 * sent at instead of decaying as time passes; pauses and waits for allowed hours are part of it.
 * Both divide by at least one second: a handful of texts sent in one pass is not "60 per second".
 */
export function sendRates(times: SendTimes): SendRates {
  if (times.sent === 0 || !times.lastSentAt) return { current: null, average: null };
  const windowMs = CURRENT_RATE_WINDOW_SECONDS * 1000;
  const runningMs = times.startedAt ? times.now.getTime() - times.startedAt.getTime() : windowMs;
  const currentSpanMs = Math.min(windowMs, Math.max(1000, runningMs));
  const current = oneDecimal(times.sentInWindow / (currentSpanMs / 1000));
  const average = times.startedAt ? oneDecimal(times.sent / (Math.max(1000, times.lastSentAt.getTime() - times.startedAt.getTime()) / 1000)) : null;
  return { current, average };
}
