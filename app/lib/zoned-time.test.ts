import { describe, expect, it } from "vitest";
import { formatInZone, zonedTimeToUtc } from "./zoned-time";

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
