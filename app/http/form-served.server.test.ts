import { describe, expect, it } from "vitest";
import { FORM_SERVED_COOKIE, formServedCookies, keepsRenderedPage, renderedPageTag } from "./form-served.server";

const secret = "a secret of the deployment, thirty-two characters or more";
const sent = Date.UTC(2026, 10, 26, 14, 30, 5, 123);
const etag = '"Qx3h7bVf0aKpZ1c2d3e4f5"';

/** The Cookie header a browser sends back for a Set-Cookie value. */
const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("the cookie that says when a form's page was sent", () => {
  const cookies = formServedCookies(secret, true);

  it("comes back as the time and the document it was set with, among other cookies", () => {
    const setCookie = cookies.setCookie(etag, sent);
    expect(setCookie).toMatch(new RegExp(`^${FORM_SERVED_COOKIE}=${sent}\\.Qx3h7bVf0aKpZ1c2d3e4f5\\.[\\w-]{22}; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure$`));
    const header = `theme=dark; ${cookieOf(setCookie)}; other=1`;
    expect(cookies.read(header, sent + 9_500)).toEqual({ at: new Date(sent), documentEtag: etag, renderedSha256: null });
    expect(cookies.servedAt(header, sent + 9_500)).toEqual(new Date(sent));
  });

  it("may name no document (a page rendered per request), or a page kept as rendered by its SHA-256", () => {
    expect(cookies.read(cookieOf(cookies.setCookie(undefined, sent)), sent + 1)).toEqual({ at: new Date(sent), documentEtag: null, renderedSha256: null });
    const sha256 = "9f".repeat(32);
    expect(cookies.read(cookieOf(cookies.setCookie(renderedPageTag(sha256), sent)), sent + 1)).toEqual({ at: new Date(sent), documentEtag: null, renderedSha256: sha256 });
  });

  it("is not believed when its time, its document or its signature was changed, or under another secret", () => {
    const value = cookieOf(cookies.setCookie(etag, sent));
    const [, time, tag, signature] = /^form_served=(\d+)\.([\w-]*)\.([\w-]+)$/.exec(value)!;
    expect(cookies.read(`form_served=${Number(time) - 60_000}.${tag}.${signature}`, sent + 1)).toBeNull();
    expect(cookies.read(`form_served=${time}.AAAAAAAAAAAAAAAAAAAAAA.${signature}`, sent + 1)).toBeNull();
    expect(cookies.read(`form_served=${time}.${tag}.${"A".repeat(22)}`, sent + 1)).toBeNull();
    expect(formServedCookies(`${secret}!`, true).read(value, sent + 1)).toBeNull();
    expect(cookies.read("form_served=garbage", sent + 1)).toBeNull();
    expect(cookies.read(undefined, sent + 1)).toBeNull();
  });

  it("is not believed from the future or after a day", () => {
    const value = cookieOf(cookies.setCookie(etag, sent));
    expect(cookies.read(value, sent - 10_000)).toBeNull();
    expect(cookies.read(value, sent + 86_400_000 + 1)).toBeNull();
    expect(cookies.read(value, sent + 86_400_000)).not.toBeNull();
  });

  it("is not Secure on a plain-http site (a browser would drop it there)", () => {
    expect(formServedCookies(secret, false).setCookie(etag, sent)).not.toContain("Secure");
  });
});

describe("the pages kept as rendered", () => {
  it("are only the newsletter's confirmation page", () => {
    expect(keepsRenderedPage("/newsletter/confirm")).toBe(true);
    expect(["/", "/opt-in", "/account", "/newsletter/preferences"].some(keepsRenderedPage)).toBe(false);
  });
});
