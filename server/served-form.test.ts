import type { IncomingMessage } from "node:http";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedPages, subscribers } from "~/db/schema";
import { formPageAddress, requestEvidence } from "~/http/request.server";
import { MAX_PAGE_URL } from "~/lib/interaction";
import { buildCertificate } from "~/services/consent/certificate.server";
import { consentSigner } from "~/services/consent/signing.server";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { keepRenderedPage, keepServedPage, rebuildServedPage as rebuildOrAltered, setServedPageSource, sha256Hex, verifyServedPages } from "~/services/consent/served-page.server";
import { DB_KINDS, useTestDatabase } from "../tests/support/test-db";
import { escapeAttribute } from "./opt-in-prefill";
import { earlierFormPagesAfter, type EarlierPage } from "./live-pages";
import { formDocumentEtag, formPageAddress as imagePageAddress } from "./form-seen";
import { createPageStore } from "./page-store";
import { formSeenSrc } from "~/lib/form-seen";
import { currentSnapshot } from "~/content/published";
import { answerFromMemory, fillServedForm, servedFormDocument, type MemoryPages } from "./pages";
import { prefilledDocument, prefillTemplate } from "./opt-in-prefill";
import { staticFileFromBody } from "./static-files";

const input = (name: string) => `<input name="${name}" value=""/>`;
/** The image every consent form loads (FormSeenImage): what makes a page one with a consent form. */
const seen = (path: string) => `<img src="${formSeenSrc(path)}" alt=""/>`;
const page = (title: string, path = "/opt-in") =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><form>${input("clickId")}${input("firstName")}${input("lastName")}${input("phone")}${seen(path)}<p>By checking this box…</p></form></body></html>`;
const html = (body: string, key: string) => staticFileFromBody(Buffer.from(body), key, { contentType: "text/html; charset=utf-8" });
const optIn = html(page("Opt in"), "/opt-in");
const optInHost = html(page("Opt in on a landing host", "/"), "/#opt-in");
const about = html("<!DOCTYPE html><title>About</title>", "/about");
const newsletterPage = (title: string, path: string) => `<!DOCTYPE html><title>${title}</title><form><input name="email"/>${seen(path)}</form>`;
const home = html(newsletterPage("Home", "/"), "/");
const homeOnHome = html(newsletterPage("Home on /home", "/home"), "/home");

/** The memory pages of a build, reduced to what the form pages need. */
const pages: MemoryPages = {
  files: new Map([["/opt-in", optIn], ["/about", about]]),
  views: new Map(),
  live: new Map([["/#home", home], ["/home", homeOnHome], ["/blog", html("<!DOCTYPE html><title>Blog</title>", "/blog")]]),
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
  it("is the document the memory answer uses, for every page answered from memory that holds a consent form", () => {
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in?f_name=Ann&sub2=c1"))).toBe(optIn);
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in"))).toBe(optIn);
    expect(servedFormDocument(pages, new URL("https://alerts.example.net/?phone=2125550123"))).toBe(optInHost);
    expect(servedFormDocument(pages, new URL("https://news.example.com/"))).toBe(home);
    // The newsletter form on /home, where every article's Subscribe button leads, with or
    // without an ad's tracking parameters.
    expect(servedFormDocument(pages, new URL("https://news.example.com/home"))).toBe(homeOnHome);
    expect(servedFormDocument(pages, new URL("https://news.example.com/home?utm_source=facebook&fbclid=IwAR1"))).toBe(homeOnHome);
    // A page without a form, a notice (rendered by the router): none.
    expect(servedFormDocument(pages, new URL("https://news.example.com/about"))).toBeUndefined();
    expect(servedFormDocument(pages, new URL("https://news.example.com/blog"))).toBeUndefined();
    expect(servedFormDocument(pages, new URL("https://news.example.com/opt-in?notice=x"))).toBeUndefined();
    expect(servedFormDocument(pages, new URL("https://news.example.com/home?notice=x"))).toBeUndefined();
  });

  it("is a page of the page store too, when it holds a form, as it was rendered (the store keeps it compressed only)", async () => {
    const bodies: Record<string, string> = { "/articles/with-form": newsletterPage("An article", "/articles/with-form"), "/articles/plain": "<!DOCTYPE html><title>Plain</title>" };
    const render = async (wanted: { key: string }) => {
      const body = Buffer.from(bodies[wanted.key]!);
      return { body, contentType: "text/html; charset=utf-8", gzip: gzipSync(body), brotli: brotliCompressSync(body) };
    };
    const store = createPageStore({ budgetBytes: 1 << 20, salt: "test", render });
    for (const key of Object.keys(bodies)) await store.get({ key, url: key, dependsOn: "d" }, currentSnapshot(), currentSnapshot);
    pages.store = store;
    try {
      expect(servedFormDocument(pages, new URL("https://news.example.com/articles/with-form"))?.body.toString()).toBe(bodies["/articles/with-form"]);
      expect(servedFormDocument(pages, new URL("https://news.example.com/articles/plain"))).toBeUndefined();
    } finally {
      pages.store = undefined;
    }
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
    expect(fillServedForm(pages, homeOnHome.body, new URL("https://news.example.com/home?utm_source=x&sub2=c1")).equals(homeOnHome.body)).toBe(true);
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
    const newer = html(newsletterPage("Home, a new article", "/"), "/");
    const newerOnHome = html(newsletterPage("Home on /home, a new article", "/home"), "/home");
    const live = pages.live;
    pages.earlierFormPages = earlierFormPagesAfter([], live, new Map([...live, ["/#home", newer], ["/home", newerOnHome]]));
    pages.live = new Map([...live, ["/#home", newer], ["/home", newerOnHome]]);
    try {
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: home.etag })).toBe(homeSha256);
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: newer.etag })).toBe(sha256Hex(newer.body));
      expect(await keepServedPage(db, "https://news.example.com/", { ...site, documentEtag: '"long-gone"' })).toBeNull();
      // On /home likewise; an earlier page of another address is not the one of this address.
      expect(await keepServedPage(db, "https://news.example.com/home?utm_source=x", { ...site, documentEtag: homeOnHome.etag })).toBe(sha256Hex(homeOnHome.body));
      expect(await keepServedPage(db, "https://news.example.com/home", { ...site, documentEtag: home.etag })).toBeNull();
    } finally {
      pages.live = live;
      pages.earlierFormPages = undefined;
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
    expect(await verifyServedPages(db)).toEqual({ checked: 5, altered: null });
    const reworded = Buffer.from(optIn.body.toString("utf8").replace("By checking this box", "Consent is a condition of every purchase. By checking this box"));
    await db.execute(sql`ALTER TABLE served_pages DISABLE TRIGGER ALL`);
    await db.execute(sql`UPDATE served_pages SET body = ${reworded} WHERE sha256 = ${sha256}`);
    await db.execute(sql`ALTER TABLE served_pages ENABLE TRIGGER ALL`);
    expect(await rebuildOrAltered(db, sha256!, landing)).toEqual({ documentSha256: sha256, altered: true, actualSha256: sha256Hex(reworded) });
    expect((await verifyServedPages(db)).altered).toEqual({ sha256, eventId: null });
  });
});

describe.each(DB_KINDS)("landing addresses on the certificate on %s", (kind) => {
  const database = useTestDatabase(kind);
  beforeAll(() => setServedPageSource({ documentFor: (url, etag) => servedFormDocument(pages, url, etag), fill: (document, url) => fillServedForm(pages, document, url) }));
  afterAll(() => setServedPageSource(undefined));
  const signer = consentSigner("served-form-test-secret-0123456789-abcdefghij");
  const origin = "https://news.example.com";

  /** What the server sends for `landing` (the prefill written into the document), as the visitor received it. */
  const sentFor = (landing: string) => {
    const answer = answerFromMemory({ method: "GET", url: landing.slice(origin.length), headers: { host: "news.example.com" } } as unknown as IncomingMessage, pages);
    if (!answer) throw new Error(`no memory answer for ${landing}`);
    return "template" in answer ? prefilledDocument(answer.template, answer.prefill) : answer.file.body;
  };

  /** An opt-in from `request` (its Referer and the address its page wrote in), and its certificate's event. */
  const optInFrom = async (request: Request, written: string | undefined, phone: string) => {
    const { db } = database;
    const evidence = requestEvidence(request, formPageAddress(request, written));
    const servedPageSha256 = await keepServedPage(db, evidence.pageUrl, { origin, documentEtag: optIn.etag, renderedSha256: null, signedIn: false });
    const result = await optInToSms(db, { firstName: "Ann", lastName: "Lee", phone, clickId: "", smsConsent: true, termsConsent: true, source: "opt-in", evidence, servedPageSha256 }, { siteName: "Patriot Investor", dncPolicy: "refuse" });
    expect(result).toMatchObject({ ok: true });
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, `+1${phone.replace(/\D/g, "")}`));
    const certificate = await buildCertificate(db, subscriber!.id, signer);
    return certificate!.events[0]!;
  };

  it("keeps a landing address of 1,235 characters whole (utm_*, fbclid, then sub2): the certificate's Page, the page rebuilt with its sub2, hashed as the visitor received it", async () => {
    const start = `${origin}/opt-in?utm_source=facebook&utm_medium=paid_social&utm_campaign=spring_gold_2026&utm_content=carousel_03&utm_term=gold%20ira&f_name=Ann&fbclid=`;
    const end = "&sub2=click-1235";
    const landing = `${start}${"IwAR3x".repeat(200).slice(0, 1_235 - start.length - end.length)}${end}`;
    expect(landing).toHaveLength(1_235);
    const sent = sentFor(landing);
    expect(sent.toString()).toContain('name="clickId" value="click-1235"');

    const event = await optInFrom(new Request(`${origin}/opt-in`, { method: "POST", headers: { referer: landing } }), undefined, "(212) 456-7011");
    expect(event.pageUrl).toBe(landing);
    expect(event.referrer).toBe(landing);
    expect(event.pageUrlNote).toBeNull();
    expect(event.servedPage).toEqual({ documentSha256: sha256Hex(optIn.body), pageSha256: sha256Hex(sent), altered: false });
    const rebuilt = await rebuildServedPage(database.db, event.servedPage!.documentSha256, event.pageUrl);
    expect(rebuilt!.body.equals(sent)).toBe(true);
  });

  it("keeps an address past the browser's 4,096 characters from the form, as its page wrote it in; one past 8,192 is cut, and the certificate says so", async () => {
    const landing = `${origin}/opt-in?fbclid=${"x".repeat(5_000)}&sub2=click-5k`;
    // The browser sent the origin alone as the Referer; the page's script wrote its address in.
    const cutByBrowser = new Request(`${origin}/opt-in`, { method: "POST", headers: { referer: `${origin}/` } });
    const event = await optInFrom(cutByBrowser, landing, "(212) 456-7012");
    expect(event.pageUrl).toBe(landing);
    expect(event.referrer).toBe(`${origin}/`);
    expect(event.servedPage!.pageSha256).toBe(sha256Hex(sentFor(landing)));

    // Past the bound: cut, and said so.
    const longer = `${origin}/opt-in?sub2=click-9k&fbclid=${"y".repeat(9_000)}`;
    const cut = await optInFrom(new Request(`${origin}/opt-in`, { method: "POST", headers: { referer: longer } }), undefined, "(212) 456-7013");
    expect(cut.pageUrl).toBe(longer.slice(0, MAX_PAGE_URL));
    expect(cut.pageUrlNote).toEqual({ cut: MAX_PAGE_URL });
  });

  it("takes the address the page wrote in only when the browser's Referer is the origin alone or missing, and only for this site", () => {
    const written = `${origin}/opt-in?sub2=c1`;
    const post = (referer?: string) => new Request(`${origin}/opt-in`, { method: "POST", headers: referer ? { referer } : {} });
    expect(formPageAddress(post(`${origin}/`), written)).toBe(written);
    expect(formPageAddress(post(), written)).toBe(written);
    // A whole Referer is the browser's word: it stands.
    expect(formPageAddress(post(`${origin}/opt-in?sub2=c2`), written)).toBeUndefined();
    expect(formPageAddress(post(`${origin}/`), "https://partner.example.org/opt-in?sub2=c1")).toBeUndefined();
    expect(formPageAddress(post(`${origin}/`), "not an address")).toBeUndefined();
    expect(formPageAddress(post(`${origin}/`), "")).toBeUndefined();
    expect(formPageAddress(post(`${origin}/`), undefined)).toBeUndefined();
  });
});

describe("the earlier pages with a form a process keeps", () => {
  const version = (i: number) =>
    new Map([
      ["/#home", html(newsletterPage(`home ${i}`, "/"), "/")],
      ["/home", html(newsletterPage(`home ${i}`, "/home"), "/home")],
      ["/blog", html(`<!DOCTYPE html><title>blog ${i}</title>`, "/blog")],
    ]);

  it("gain each replaced page with a form under its key, newest first, up to 16; pages without one, and a render of the same bytes, add nothing", () => {
    const versions = Array.from({ length: 10 }, (_, i) => version(i));
    let earlier: EarlierPage[] = [];
    for (let i = 1; i < versions.length; i++) earlier = earlierFormPagesAfter(earlier, versions[i - 1]!, versions[i]!);
    expect(earlier).toHaveLength(16);
    expect(earlier.slice(0, 2)).toEqual([
      { key: "/#home", file: versions[8]!.get("/#home") },
      { key: "/home", file: versions[8]!.get("/home") },
    ]);
    expect(earlier.at(-1)).toEqual({ key: "/home", file: versions[1]!.get("/home") });
    // Rendered again, byte for byte the same (new objects): nothing was replaced.
    expect(earlierFormPagesAfter(earlier, versions[9]!, version(9))).toEqual(earlier);
    expect(earlierFormPagesAfter([], new Map(), versions[0]!)).toEqual([]);
  });
});

describe("the page a form's image names", () => {
  const origin = "https://news.example.com";
  const long = `${origin}/opt-in?sub2=${"c".repeat(5_000)}`;

  it("is the Referer when it is the page the image names, with its query string", () => {
    expect(imagePageAddress(formSeenSrc("/opt-in"), `${origin}/opt-in?sub2=c1`, origin)?.href).toBe(`${origin}/opt-in?sub2=c1`);
    expect(imagePageAddress(formSeenSrc("/"), `${origin}/?utm_source=x`, origin)?.href).toBe(`${origin}/?utm_source=x`);
    // An image of an earlier build (no page named): the Referer alone.
    expect(imagePageAddress("/form-seen.gif", long, origin)?.href).toBe(long);
  });

  it("is the page the image names when the browser cut the Referer to the origin (an address past 4,096 characters) or sent none", () => {
    expect(imagePageAddress(formSeenSrc("/opt-in"), `${origin}/`, origin)?.href).toBe(`${origin}/opt-in`);
    expect(imagePageAddress(formSeenSrc("/home"), undefined, origin)?.href).toBe(`${origin}/home`);
    expect(imagePageAddress("/form-seen.gif", undefined, origin)).toBeUndefined();
  });

  it("is never another site's page", () => {
    expect(imagePageAddress(formSeenSrc("/opt-in"), "https://partner.example.org/opt-in", origin)?.href).toBe(`${origin}/opt-in`);
    expect(imagePageAddress("/form-seen.gif", "https://partner.example.org/opt-in", origin)).toBeUndefined();
    expect(imagePageAddress("/form-seen.gif?page=%2F%2Fevil.example%2Fx", undefined, origin)).toBeUndefined();
    expect(imagePageAddress("/form-seen.gif?page=https%3A%2F%2Fevil.example%2F", undefined, origin)).toBeUndefined();
    expect(imagePageAddress("/form-seen.gif", "not a url", origin)).toBeUndefined();
  });

  it("names the document of that page by its ETag", () => {
    expect(formDocumentEtag(pages, formSeenSrc("/home"), `${origin}/`, origin)).toBe(homeOnHome.etag);
    expect(formDocumentEtag(pages, formSeenSrc("/home"), `${origin}/home?utm_source=x`, origin)).toBe(homeOnHome.etag);
    expect(formDocumentEtag(pages, formSeenSrc("/opt-in"), `${origin}/`, origin)).toBe(optIn.etag);
    expect(formDocumentEtag(pages, formSeenSrc("/about"), undefined, origin)).toBeUndefined();
  });
});
