import { describe, expect, it } from "vitest";
import { zonedLocalToUtc } from "./zoned-time";

describe("zonedLocalToUtc", () => {
  it("reads a wall-clock time in a named zone, across daylight saving time", () => {
    expect(zonedLocalToUtc("2026-01-15T09:30", "America/New_York")?.toISOString()).toBe("2026-01-15T14:30:00.000Z");
    expect(zonedLocalToUtc("2026-07-15T09:30", "America/New_York")?.toISOString()).toBe("2026-07-15T13:30:00.000Z");
    expect(zonedLocalToUtc("2026-07-15T09:30", "America/Phoenix")?.toISOString()).toBe("2026-07-15T16:30:00.000Z");
    expect(zonedLocalToUtc("2026-11-01T01:30", "America/Chicago")?.toISOString()).toMatch(/^2026-11-01T0[67]:30:00.000Z$/);
  });

  it("refuses a time skipped by the clock change, a bad zone and a malformed value", () => {
    expect(zonedLocalToUtc("2026-03-08T02:30", "America/New_York")).toBeNull();
    expect(zonedLocalToUtc("2026-01-15T09:30", "Mars/Olympus")).toBeNull();
    expect(zonedLocalToUtc("tomorrow", "UTC")).toBeNull();
    expect(zonedLocalToUtc("2026-02-30T09:30", "UTC")).toBeNull();
  });
});
