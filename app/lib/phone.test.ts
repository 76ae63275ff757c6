import { describe, expect, it } from "vitest";
import { checkUsMobile } from "./phone";

describe("checkUsMobile", () => {
  it.each([
    ["(212) 456-7890", "+12124567890"],
    ["212-456-7890", "+12124567890"],
    ["+1 212 456 7890", "+12124567890"],
    ["1 (310) 555-2368".replace("555", "444"), "+13104442368"],
    ["  2024561111 ", "+12024561111"],
  ])("accepts %s as %s", (input, e164) => {
    expect(checkUsMobile(input)).toEqual({ ok: true, e164, national: e164.slice(2) });
  });

  it.each([
    ["", "invalid"],
    ["hello", "invalid"],
    ["12345", "invalid"],
    ["212-456-789", "invalid"],
    ["(212) 555-0123", "fictional"],
    ["(212) 555-0199", "fictional"],
    ["(212) 555-0200", "fictional"],
    ["(212) 555-1212", "fictional"],
    ["212-411-7890", "service_code"],
    ["212-911-1234", "service_code"],
    ["800-234-5678", "toll_free"],
    ["888-234-5678", "toll_free"],
    ["833-234-5678", "toll_free"],
    ["900-234-5678", "premium"],
    ["500-234-5678", "non_geographic"],
    ["+1 (212) 456-7890 ext 12", "extension"],
    ["(416) 234-5678", "not_us"],
    ["(787) 234-5678", "not_us"],
    ["+44 20 7946 0958", "not_us"],
    ["(112) 456-7890", "area_code"],
    ["(212) 056-7890", "exchange"],
  ])("refuses %s (%s) with a message that says why", (input, code) => {
    const result = checkUsMobile(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message.length).toBeGreaterThan(20);
    }
  });

  it.each([
    ["(555) 123-4567", "fictional", /Area code 555 is reserved/],
    ["1-555-234-5678", "fictional", /Area code 555 is reserved/],
    ["123-456-7890", "area_code", /never start with 1, so 123 cannot be an area code/],
    ["311-234-5678", "area_code", /311 is a service code/],
    ["999-234-5678", "area_code", /Area code 999 is not in use/],
    ["212-156-7890", "exchange", /never start with 1/],
  ])("explains why ten digits %s cannot be a number (%s)", (input, code, message) => {
    const result = checkUsMobile(input);
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) {
      expect(result.message).toMatch(message);
      expect(result.message).not.toMatch(/valid 10-digit/);
    }
  });
});
