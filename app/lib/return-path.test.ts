import { describe, expect, it } from "vitest";
import { OPEN_REDIRECT_PAYLOADS } from "../../tests/support/open-redirects";
import { safeReturnPath, signInHref } from "./return-path";

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

describe("signInHref", () => {
  it("carries the page's path back, encoded", () => {
    expect(signInHref("/articles/gold-outlook")).toBe("/auth?redirectTo=%2Farticles%2Fgold-outlook");
    expect(signInHref("/blog")).toBe("/auth?redirectTo=%2Fblog");
  });

  it.each(["/", "/auth", "/auth/forgot", "/setup", "//evil.example", "/\\evil.example"])("needs no way back from %j", (path) => {
    expect(signInHref(path)).toBe("/auth");
  });
});
