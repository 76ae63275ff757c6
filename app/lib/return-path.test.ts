import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%2f%2fevil.example",
    "/%5cevil.example",
    "https:evil.example",
    "http://localhost.evil.example",
    "https://oursite.example.evil.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "",
    null,
    "admin/sms",
    "/\u0000x",
  ])("sends %j home", (value) => {
    expect(safeReturnPath(value)).toBe("/");
  });

  it.each(["/admin/sms", "/articles/x?ref=nav", "/blog?category=bonds-fixed-income#top"])("keeps %j", (value) => {
    expect(safeReturnPath(value)).toBe(value);
  });
});
