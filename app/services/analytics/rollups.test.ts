import { describe, expect, it } from "vitest";
import { dimensionsOf } from "./rollups";
import type { ViewRow } from "./writer";

const view = (path: string): ViewRow => ({
  day: "2026-03-01",
  hour: "2026-03-01T10",
  path,
  channel: "paid",
  referrer: "",
  source: "newsmax",
  medium: "cpc",
  campaign: "Spring",
  clickIds: [],
  subs: ["AFF1", "c1ck", "", "", ""],
  device: "phone",
  views: 1,
});

describe("the lead-landing dimension (decision 154)", () => {
  it("counts each view of the ad landing page by source, campaign and all five sub-ids", () => {
    expect(dimensionsOf(view("/opt-in"))).toContainEqual(["lead-landing", JSON.stringify(["newsmax", "Spring", "AFF1", "c1ck", "", "", ""])]);
  });

  it("leaves every other page out of it", () => {
    expect(dimensionsOf(view("/gold")).map(([dimension]) => dimension)).not.toContain("lead-landing");
  });
});
