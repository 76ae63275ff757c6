import { describe, expect, it } from "vitest";
import { formatInZone, zonedTimeToUtc } from "./zoned-time";

describe("zonedTimeToUtc", () => {
  it("reads a wall-clock time in a named zone, across daylight saving time", () => {
    expect(zonedTimeToUtc("2026-01-15T09:30", "America/New_York")?.toISOString()).toBe("2026-01-15T14:30:00.000Z");
    expect(zonedTimeToUtc("2026-07-15T09:30", "America/New_York")?.toISOString()).toBe("2026-07-15T13:30:00.000Z");
    expect(zonedTimeToUtc("2026-07-15T09:30", "America/Phoenix")?.toISOString()).toBe("2026-07-15T16:30:00.000Z");
    expect(zonedTimeToUtc("2026-11-01T01:30", "America/Chicago")?.toISOString()).toMatch(/^2026-11-01T0[67]:30:00.000Z$/);
  });

  it("refuses a time skipped by the clock change, a bad zone and a malformed value", () => {
    expect(zonedTimeToUtc("2026-03-08T02:30", "America/New_York")).toBeNull();
    expect(zonedTimeToUtc("2026-01-15T09:30", "Mars/Olympus")).toBeNull();
    expect(zonedTimeToUtc("tomorrow", "UTC")).toBeNull();
    expect(zonedTimeToUtc("2026-02-30T09:30", "UTC")).toBeNull();
  });
});

describe("times in a named zone", () => {
  it("turns a wall-clock time into its instant, across daylight saving time", () => {
    expect(zonedTimeToUtc("2026-11-24T09:30", "America/New_York")).toEqual(new Date("2026-11-24T14:30:00Z"));
    expect(zonedTimeToUtc("2026-07-04T09:30", "America/New_York")).toEqual(new Date("2026-07-04T13:30:00Z"));
    expect(zonedTimeToUtc("2026-11-24T09:30", "Pacific/Honolulu")).toEqual(new Date("2026-11-24T19:30:00Z"));
    expect(zonedTimeToUtc("2026-11-24T09:30", "UTC")).toEqual(new Date("2026-11-24T09:30:00Z"));
    expect(zonedTimeToUtc("not a time", "UTC")).toBeNull();
  });

  it("shows an instant in the zone it was scheduled in", () => {
    expect(formatInZone(new Date("2026-11-24T14:30:00Z"), "America/New_York")).toBe("Nov 24, 2026, 9:30 AM EST");
  });
});
