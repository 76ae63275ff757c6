import { describe, expect, it } from "vitest";
import { hasSessionCookie } from "./session-cookie";

describe("hasSessionCookie", () => {
  it("finds better-auth's session cookie, with or without the __Secure- prefix, among others", () => {
    expect(hasSessionCookie("better-auth.session_token=abc.def")).toBe(true);
    expect(hasSessionCookie("theme=dark; __Secure-better-auth.session_token=abc.def; x=1")).toBe(true);
  });

  it("ignores no cookie, other cookies, look-alikes and a cleared (empty) session cookie", () => {
    expect(hasSessionCookie(undefined)).toBe(false);
    expect(hasSessionCookie("theme=dark")).toBe(false);
    expect(hasSessionCookie("not-better-auth.session_token=abc")).toBe(false);
    expect(hasSessionCookie("better-auth.session_token_x=abc")).toBe(false);
    expect(hasSessionCookie("better-auth.session_token=; theme=dark")).toBe(false);
  });
});
