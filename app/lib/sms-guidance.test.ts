import { describe, expect, it } from "vitest";
import { analyzeSms } from "./sms-guidance";

const BRAND = "Patriot Investor";

describe("analyzeSms", () => {
  it.each([
    ["a".repeat(160), 1, "GSM-7"],
    ["a".repeat(161), 2, "GSM-7"],
    ["a".repeat(306), 2, "GSM-7"],
    ["a".repeat(307), 3, "GSM-7"],
    ["€".repeat(80), 1, "GSM-7"],
    ["€".repeat(81), 2, "GSM-7"],
    ["a".repeat(69) + "—", 1, "UCS-2"],
    ["a".repeat(70) + "—", 2, "UCS-2"],
    ["😀".repeat(35), 1, "UCS-2"],
    ["😀".repeat(36), 2, "UCS-2"],
  ])("%#: counts segments and encoding", (text, segments, encoding) => {
    const result = analyzeSms(text, BRAND);
    expect(result.segments).toBe(segments);
    expect(result.encoding).toBe(encoding);
  });

  it("passes the default welcome text without warnings", () => {
    const text = "Patriot Investor Alerts: You're subscribed to market alerts. Up to 3 msgs/day. Msg&data rates may apply. Reply HELP for help, STOP to cancel.";
    expect(analyzeSms(text, BRAND)).toMatchObject({ segments: 1, encoding: "GSM-7", warnings: [] });
  });

  it("warns about missing STOP, HELP and brand, and names the characters that force UCS-2", () => {
    const result = analyzeSms("Welcome! Here’s your first alert.", BRAND);
    expect(result.nonGsmCharacters).toEqual(["’"]);
    expect(result.warnings.join("\n")).toMatch(/Reply STOP/);
    expect(result.warnings.join("\n")).toMatch(/HELP/);
    expect(result.warnings.join("\n")).toMatch(/Patriot Investor/);
    expect(result.warnings.join("\n")).toMatch(/UCS-2/);
  });
});
