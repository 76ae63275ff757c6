import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedPages } from "~/db/schema";
import { keepRenderedPage, keepServedPage, rebuildServedPage as rebuildOrAltered, setServedPageSource, sha256Hex, verifyServedPages } from "~/services/consent/served-page.server";
import { DB_KINDS, useTestDatabase } from "../tests/support/test-db";
import { escapeAttribute } from "./opt-in-prefill";
import { earlierHomesAfter } from "./live-pages";
import { fillServedForm, servedFormDocument, type MemoryPages } from "./pages";
import { prefillTemplate } from "./opt-in-prefill";
import { staticFileFromBody } from "./static-files";

const input = (name: string) => `<input name="${name}" value=""/>`;
const page = (title: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><form>${input("clickId")}${input("firstName")}${input("lastName")}${input("phone")}<p>By checking this box…</p></form></body></html>`;
const optIn = staticFileFromBody(Buffer.from(page("Opt in")), "/opt-in", { contentType: "text/html; charset=utf-8" });
const optInHost = staticFileFromBody(Buffer.from(page("Opt in on a landing host")), "/#opt-in", { contentType: "text/html; charset=utf-8" });
const about = staticFileFromBody(Buffer.from("<!DOCTYPE html><title>About</title>"), "/about", { contentType: "text/html; charset=utf-8" });
const home = staticFileFromBody(Buffer.from('<!DOCTYPE html><title>Home</title><form><input name="email"/></form>'), "/", { contentType: "text/html; charset=utf-8" });

/** The memory pages of a build, reduced to what the opt-in answers need. */
const pages: MemoryPages = {
  files: new Map([["/opt-in", optIn], ["/about", about]]),
  views: new Map(),
  live: new Map([["/#home", home]]),
  optIn: prefillTemplate(optIn),
  optInHost: prefillTemplate(optInHost),
  mainDomains: ["news.example.com"],
};

/** The page as rebuilt, failing the test when the kept bytes no longer match their SHA-256. */
async function rebuildServedPage(...args: Parameters<typeof rebuildOrAltered>) {
  const page = await rebuildOrAltered(...args);
  if (page?.altered) throw new Error(`the kept page ${page.documentSha256} was altered`);
  return page;
}

describe("the document a form was served in", () => {
  it("is the document the memory answer uses, for the opt-in page (and / on a landing host) and the home page with the newsletter form only", () => {
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in?f_name=Ann&sub2=c1"))).toBe(optIn);
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in"))).toBe(optIn);
    expect(servedFormDocument(pages, new URL("https://alerts.example.net/?phone=2125550123"))).toBe(optInHost);
    expect(servedFormDocument(pages, new URL("https://news.example.com/"))).toBe(home);
    // Another page, a notice (rendered by the router): none.
    expect(servedFormDocument(pages, new URL("https://news.example.com/about"))).toBeUndefined();
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in?notice=x"))).toBeUndefined();
  });

  it("is filled with the landing URL's values exactly as the page was sent", () => {
    const filled = fillServedForm(pages, optIn.body, new URL("https://news.example.com/opt-in?f_name=Ann&l_name=O%27Brien%20%26%20Co&sub2=c%221")).toString("utf8");
    expect(filled).toBe(
      page("Opt in")
        .replace('name="firstName" value=""', `name="firstName" value="Ann"`)
        .replace('name="lastName" value=""', `name="lastName" value="${escapeAttribute("O'Brien & Co")}"`)
        .replace('name="clickId" value=""', `name="clickId" value="${escapeAttribute('c"1')}"`),
    );
    expect(fillServedForm(pages, optIn.body, new URL("https://news.example.com/opt-in")).equals(optIn.body)).toBe(true);
  });

  it("is the home page as it is: nothing is written into it", () => {
    expect(fillServedForm(pages, home.body, new URL("https://news.example.com/?utm_source=x")).equals(home.body)).toBe(true);
  });
});

describe.each(DB_KINDS)("kept served pages on %s", (kind) => {
  const database = useTestDatabase(kind);
  beforeAll(() => setServedPageSource({ documentFor: (url, etag) => servedFormDocument(pages, url, etag), fill: (document, url) => fillServedForm(pages, document, url) }));
  afterAll(() => setServedPageSource(undefined));

  const site = { origin: "https://news.example.com", documentEtag: null, renderedSha256: null, signedIn: false };

  it("keeps the document once, only for this site's own page, and rebuilds the page byte for byte; the rows cannot be changed", async () => {
    const { db } = database;
    const landing = "https://news.example.com/opt-in?f_name=Ann&sub2=click-1";
    const sha256 = await keepServedPage(db, landing, site);
    expect(sha256).toBe(sha256Hex(optIn.body));
    expect(await keepServedPage(db, "https://news.example.com/opt-in?sub2=click-2", site)).toBe(sha256);
    // The cookie of the page names the very document: kept; another one (a new release since the
    // page was sent): not kept, rather than naming a page the person did not see.
    expect(await keepServedPage(db, landing, { ...site, documentEtag: optIn.etag })).toBe(sha256);
    expect(await keepServedPage(db, landing, { ...site, documentEtag: '"an-older-document"' })).toBeNull();
    // A form on another site (the API's Referer), no address, another page: nothing kept.
    expect(await keepServedPage(db, "https://partner.example.org/opt-in", site)).toBeNull();
    expect(await keepServedPage(db, null, site)).toBeNull();
    expect(await keepServedPage(db, "https://news.example.com/about", site)).toBeNull();
    expect(await db.select({ sha256: servedPages.sha256 }).from(servedPages)).toEqual([{ sha256 }]);

    const rebuilt = await rebuildServedPage(db, sha256!, landing);
    const sent = fillServedForm(pages, optIn.body, new URL(landing));
    expect(rebuilt!.body.equals(sent)).toBe(true);
    expect(rebuilt!.pageSha256).toBe(sha256Hex(sent));
    expect(await rebuildServedPage(db, "0".repeat(64), landing)).toBeNull();

    // The home page with the newsletter form is kept as it was sent.
    const homeSha256 = await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: home.etag });
    expect(homeSha256).toBe(sha256Hex(home.body));
    expect((await rebuildServedPage(db, homeSha256!, "https://news.example.com/"))!.body.equals(home.body)).toBe(true);
    // An article was published between sending the home page and the form's return: the record
    // keeps the page the person saw, not the newer one.
    const newer = staticFileFromBody(Buffer.from('<!DOCTYPE html><title>Home, a new article</title><form><input name="email"/></form>'), "/", { contentType: "text/html; charset=utf-8" });
    pages.live = new Map([["/#home", newer]]);
    pages.earlierHomes = [home];
    try {
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: home.etag })).toBe(homeSha256);
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: newer.etag })).toBe(sha256Hex(newer.body));
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: '"long-gone"' })).toBeNull();
    } finally {
      pages.live = new Map([["/#home", home]]);
      pages.earlierHomes = undefined;
    }

    // A page only a render makes (the newsletter's confirmation button): kept as it was sent and
    // named by the cookie, for a signed-in person too; a name with no kept page names nothing.
    const confirmPage = Buffer.from('<!DOCTYPE html><title>Confirm</title><form method="post"><button>Confirm my subscription</button></form>');
    const confirmSha256 = await keepRenderedPage(db, confirmPage, "text/html; charset=utf-8");
    const confirmUrl = "https://news.example.com/newsletter/confirm?token=t0k3n";
    expect(await keepServedPage(db, confirmUrl, { ...site, renderedSha256: confirmSha256, signedIn: true })).toBe(confirmSha256);
    expect(await keepServedPage(db, confirmUrl, { ...site, renderedSha256: "f".repeat(64) })).toBeNull();
    expect((await rebuildServedPage(db, confirmSha256, confirmUrl))!.body.equals(confirmPage)).toBe(true);
    // A signed-in person's opt-in page is rendered for them: no shared document names it.
    expect(await keepServedPage(db, landing, { ...site, signedIn: true })).toBeNull();

    await expect(db.execute(sql`UPDATE served_pages SET body = '\\x00'::bytea`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM served_pages`)).rejects.toThrow();

    // Someone with the database switches the trigger off and rewords the kept page: it no longer
    // proves itself, so it is never rebuilt as the page the person saw, and the check names it.
    expect(await verifyServedPages(db)).toEqual({ checked: 4, altered: null });
    const reworded = Buffer.from(optIn.body.toString("utf8").replace("By checking this box", "Consent is a condition of every purchase. By checking this box"));
    await db.execute(sql`ALTER TABLE served_pages DISABLE TRIGGER ALL`);
    await db.execute(sql`UPDATE served_pages SET body = ${reworded} WHERE sha256 = ${sha256}`);
    await db.execute(sql`ALTER TABLE served_pages ENABLE TRIGGER ALL`);
    expect(await rebuildOrAltered(db, sha256!, landing)).toEqual({ documentSha256: sha256, altered: true, actualSha256: sha256Hex(reworded) });
    expect((await verifyServedPages(db)).altered).toEqual({ sha256, eventId: null });
  });
});

describe("the earlier home pages a process keeps", () => {
  const file = (text: string) => staticFileFromBody(Buffer.from(text), "/", { contentType: "text/html; charset=utf-8" });

  it("gain the replaced page, newest first, up to 8; a render that kept the same page changes nothing", () => {
    const homes = Array.from({ length: 10 }, (_, i) => file(`home ${i}`));
    let earlier: ReturnType<typeof earlierHomesAfter> = [];
    for (let i = 1; i < homes.length; i++) earlier = earlierHomesAfter(earlier, homes[i - 1], homes[i]);
    expect(earlier).toEqual(homes.slice(1, 9).reverse());
    expect(earlierHomesAfter(earlier, homes[9], homes[9])).toEqual(earlier);
    expect(earlierHomesAfter([], undefined, homes[0])).toEqual([]);
  });
});
