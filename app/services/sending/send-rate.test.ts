import { describe, expect, it } from "vitest";
import { CURRENT_RATE_WINDOW_SECONDS, sendRates } from "./send-rate";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 17, 0, 0) + seconds * 1000);

describe("a send's rates", () => {
  it("right after a 20-second send at 20 per second: 20 now and 20 on average (a 60-second average said 6.7)", () => {
    // 400 texts from 0 s to 20 s; 100 of them in the last 5 s.
    expect(CURRENT_RATE_WINDOW_SECONDS).toBe(5);
    expect(sendRates({ now: at(20.2), startedAt: at(0), lastSentAt: at(20), sent: 400, sentInWindow: 100 })).toEqual({ current: 20, average: 20 });
  });

  it("a minute after it ended: nothing now, the average stays", () => {
    expect(sendRates({ now: at(80), startedAt: at(0), lastSentAt: at(20), sent: 400, sentInWindow: 0 })).toEqual({ current: 0, average: 20 });
  });

  it("follows a change of pace within the window; the average covers pauses", () => {
    // 50 per second for 10 s, a 10 s pause, then 10 per second for 10 s.
    expect(sendRates({ now: at(30), startedAt: at(0), lastSentAt: at(30), sent: 600, sentInWindow: 50 })).toEqual({ current: 10, average: 20 });
  });

  it("counts a send that began less than a window ago over the time it has run", () => {
    expect(sendRates({ now: at(2), startedAt: at(0), lastSentAt: at(2), sent: 40, sentInWindow: 40 })).toEqual({ current: 20, average: 20 });
  });

  it("divides by at least a second: three texts in one pass are not 60 per second", () => {
    expect(sendRates({ now: at(0.05), startedAt: at(0), lastSentAt: at(0.05), sent: 3, sentInWindow: 3 })).toEqual({ current: 3, average: 3 });
  });

  it("has no rate before the first text, and no average without a start", () => {
    expect(sendRates({ now: at(3), startedAt: at(0), lastSentAt: null, sent: 0, sentInWindow: 0 })).toEqual({ current: null, average: null });
    expect(sendRates({ now: at(3), startedAt: null, lastSentAt: at(1), sent: 2, sentInWindow: 2 })).toEqual({ current: 0.4, average: null });
  });
});
