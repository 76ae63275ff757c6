import { describe, expect, it } from "vitest";
import { cookieHeaders, retryAfterHeaders, retryAfterOf, withRetryAfter } from "./call-auth.server";

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

describe("when a limited client may try again", () => {
  const limited = (headers: Record<string, string>) => new Response("{}", { status: 429, headers });

  it("reads better-auth's X-Retry-After (its rate limiter) and Retry-After (its lock), in whole seconds of at least 1", () => {
    expect(retryAfterOf(limited({ "X-Retry-After": "7" }))).toBe(7);
    expect(retryAfterOf(limited({ "Retry-After": "842" }))).toBe(842);
    expect(retryAfterOf(limited({ "X-Retry-After": "0" }))).toBe(1);
    expect(retryAfterOf(limited({}))).toBeUndefined();
    expect(retryAfterOf(new Response("{}", { status: 401, headers: { "X-Retry-After": "7" } }))).toBeUndefined();
  });

  it("adds the standard Retry-After to better-auth's own 429 and leaves other answers alone", async () => {
    const answered = withRetryAfter(limited({ "X-Retry-After": "9", "Content-Type": "application/json" }));
    expect(answered.status).toBe(429);
    expect(answered.headers.get("Retry-After")).toBe("9");
    expect(await answered.text()).toBe("{}");
    const ok = new Response("{}", { status: 200 });
    expect(withRetryAfter(ok)).toBe(ok);
  });

  it("gives a form's 429 the seconds of the call it makes", () => {
    expect(retryAfterHeaders({ ...call([]), ok: false, status: 429, retryAfterSeconds: 5 })).toEqual({ "Retry-After": "5" });
    expect(retryAfterHeaders({ ...call([]), ok: false, status: 401 })).toEqual({});
  });
});
