import { describe, expect, it } from "vitest";
import { OPEN_REDIRECT_PAYLOADS } from "../../tests/support/open-redirects";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it.each([...OPEN_REDIRECT_PAYLOADS, "https://oursite.example.evil.example", "", null, "admin/sms", "/\u0000x"])(
    "sends %j home",
    (value) => {
      expect(safeReturnPath(value)).toBe("/");
    },
  );

  it.each(["/admin/sms", "/articles/x?ref=nav", "/blog?category=bonds-fixed-income#top"])("keeps %j", (value) => {
    expect(safeReturnPath(value)).toBe(value);
  });
});
