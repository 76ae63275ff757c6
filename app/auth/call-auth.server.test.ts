import { describe, expect, it } from "vitest";
import { cookieHeaders } from "./call-auth.server";

const call = (setCookies: string[]) => ({ ok: true, status: 200, body: null, setCookies });

describe("cookieHeaders", () => {
  it("keeps one cookie per name (the last) and puts the session cookie being set at the end", () => {
    const headers = cookieHeaders(
      call([
        "better-auth.session_token=; Max-Age=0; Path=/",
        "better-auth.session_data=; Max-Age=0; Path=/",
        "better-auth.session_token=NEW; Max-Age=259200; Path=/",
        "better-auth.two_factor=; Max-Age=0; Path=/",
      ]),
    );
    expect(headers.getSetCookie()).toEqual([
      "better-auth.session_data=; Max-Age=0; Path=/",
      "better-auth.two_factor=; Max-Age=0; Path=/",
      "better-auth.session_token=NEW; Max-Age=259200; Path=/",
    ]);
  });

  it("on sign-out puts the session cookie's clearing last", () => {
    const headers = cookieHeaders(
      call(["better-auth.session_token=; Max-Age=0; Path=/", "better-auth.session_data=; Max-Age=0; Path=/", "better-auth.dont_remember=; Max-Age=0; Path=/"]),
    );
    expect(headers.getSetCookie().at(-1)).toBe("better-auth.session_token=; Max-Age=0; Path=/");
  });

  it("on a two-factor sign-in puts the two-factor cookie being set last", () => {
    const headers = cookieHeaders(call(["better-auth.session_token=; Max-Age=0; Path=/", "better-auth.two_factor=abc; Max-Age=600; Path=/"]));
    expect(headers.getSetCookie().at(-1)).toBe("better-auth.two_factor=abc; Max-Age=600; Path=/");
  });
});
