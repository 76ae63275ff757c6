import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { answerFromMemory, type MemoryPages } from "./pages";
import { prefillTemplate } from "./opt-in-prefill";
import type { StaticFile } from "./static-files";

const page = (name: string) =>
  ({ body: Buffer.from(`<p>${name}</p><input name="clickId" value=""/><input name="firstName" value=""/><input name="lastName" value=""/><input name="phone" value=""/>`), contentType: "text/html", cacheControl: "no-cache", etag: `"${name}"` }) as StaticFile;

const FILES = { about: page("about"), blog: page("blog"), optIn: page("opt-in"), asset: page("asset") };
const VIEWS = { home: page("home"), homeOnHome: page("home on /home"), optInHost: page("opt-in host"), metals: page("metals") };
const pages: MemoryPages = {
  files: new Map([["/about", FILES.about], ["/opt-in", FILES.optIn], ["/assets/app.js", FILES.asset]]),
  views: new Map([["/#opt-in", VIEWS.optInHost]]),
  // Rendered from the database (server/live-pages.ts).
  live: new Map([["/blog", FILES.blog], ["/#home", VIEWS.home], ["/home", VIEWS.homeOnHome], ["/blog?category=precious-metals", VIEWS.metals]]),
  optIn: prefillTemplate(FILES.optIn),
  optInHost: prefillTemplate(VIEWS.optInHost),
  mainDomains: ["patriotinvestor.example"],
};

const answer = (url: string, { method = "GET", host = "www.patriotinvestor.example" } = {}) =>
  answerFromMemory({ method, url, headers: { host } } as unknown as IncomingMessage, pages);

describe("answerFromMemory", () => {
  it("answers files by path when there is no query string", () => {
    expect(answer("/about")).toEqual({ file: FILES.about });
    expect(answer("/assets/app.js", { method: "HEAD" })).toEqual({ file: FILES.asset });
    expect(answer("/nothing-here")).toBeUndefined();
    expect(answer("/about", { method: "POST" })).toBeUndefined();
    expect(answer("/%E0%A4%A")).toBeUndefined();
  });

  it("answers / by Host, with or without a query string", () => {
    expect(answer("/")).toEqual({ file: VIEWS.home });
    expect(answer("/?utm_source=x")).toEqual({ file: VIEWS.home });
    expect(answer("/", { host: "ads.example" })).toEqual({ file: VIEWS.optInHost });
    expect(answer("/?f_name=Betsy", { host: "ads.example" })).toMatchObject({ template: pages.optInHost, prefill: { firstName: "Betsy" } });
  });

  it("answers /home with any query string (an ad's tracking parameters) but a notice: the home page shows nothing of it", () => {
    expect(answer("/home")).toEqual({ file: VIEWS.homeOnHome });
    expect(answer("/home?utm_source=facebook&fbclid=IwAR0x&sub2=c1")).toEqual({ file: VIEWS.homeOnHome });
    expect(answer("/home?notice=signedIn")).toBeUndefined();
    expect(answer("/home?utm_source=x", { method: "POST" })).toBeUndefined();
  });

  it("writes the prefill into /opt-in, and sends the plain document when there is none", () => {
    expect(answer("/opt-in?f_name=Betsy&sub2=c1")).toMatchObject({ template: pages.optIn, prefill: { firstName: "Betsy", clickId: "c1", lastName: "", phone: "" } });
    expect(answer("/opt-in?utm_source=x")).toEqual({ file: FILES.optIn });
    expect(answer("/opt-in")).toEqual({ file: FILES.optIn });
  });

  it("answers known blog categories and leaves unknown ones to the router (404)", () => {
    expect(answer("/blog?category=precious-metals")).toEqual({ file: VIEWS.metals });
    expect(answer("/blog?utm_source=x")).toEqual({ file: FILES.blog });
    expect(answer("/blog?category=crypto")).toBeUndefined();
    expect(answer("/blog?category=")).toBeUndefined();
  });

  it("leaves further pages of the lists to the router (rendered per request)", () => {
    expect(answer("/blog?page=2")).toBeUndefined();
    expect(answer("/blog?category=precious-metals&page=2")).toBeUndefined();
    expect(answer("/blog?page=1")).toBeUndefined();
  });

  it("leaves a notice, and any other page with a query string, to the router", () => {
    expect(answer("/opt-in?notice=signedIn")).toBeUndefined();
    expect(answer("/?notice=signedIn")).toBeUndefined();
    expect(answer("/blog?category=precious-metals&notice=signedIn")).toBeUndefined();
    expect(answer("/about?x=1")).toBeUndefined();
  });
});
