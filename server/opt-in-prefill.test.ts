import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeAttribute, prefilledDocument, prefilledGzip, prefillTemplate } from "./opt-in-prefill";
import type { StaticFile } from "./static-files";

const input = (name: string, before = "") => `<input${before} name="${name}" value=""/>`;
const PAGE = `<!DOCTYPE html><html><body><form>${input("clickId", ' type="hidden"')}<p>${"Free alerts. ".repeat(200)}</p>
${input("firstName", ' class="a"')}${input("lastName")}<script>window.x = "value=\\"\\"";</script>${input("phone", ' type="tel"')}</form>${"<footer>© 2026</footer>".repeat(50)}</body></html>`;

const file = (html: string) => ({ body: Buffer.from(html), contentType: "text/html; charset=utf-8", cacheControl: "no-cache", etag: '"x"' }) as StaticFile;

/** What React renders: the escaped value in place of each empty one. */
const expected = (values: Record<string, string>) =>
  Object.entries(values).reduce((html, [name, value]) => html.replace(`name="${name}" value=""`, () => `name="${name}" value="${escapeAttribute(value)}"`), PAGE);

describe("the prefilled opt-in document", () => {
  const template = prefillTemplate(file(PAGE));

  it("writes each value into its own input, escaped like React", () => {
    const values = { clickId: "c&1", firstName: `"><script>alert(1)</script>`, lastName: "O'Brien", phone: "☎ 555" };
    const html = prefilledDocument(template, values).toString("utf8");
    expect(html).toBe(expected(values));
    expect(html).toContain('name="firstName" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it("gzips to the same bytes for any values (spliced, not recompressed)", () => {
    const value = fc.string({ unit: "grapheme-composite", maxLength: 100 });
    fc.assert(
      fc.property(fc.record({ clickId: value, firstName: value, lastName: value, phone: value }), (values) => {
        const gzip = Buffer.concat(prefilledGzip(template, values));
        expect(zlib.gunzipSync(gzip).equals(prefilledDocument(template, values))).toBe(true);
        expect(zlib.gunzipSync(gzip).toString("utf8")).toBe(expected(values));
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a page whose inputs changed shape, at start instead of per request", () => {
    expect(() => prefillTemplate(file(PAGE.replace(input("phone", ' type="tel"'), "")))).toThrow(/phone/);
    expect(() => prefillTemplate(file(PAGE.replace('name="lastName" value=""', 'name="lastName"')))).toThrow(/lastName/);
    expect(() => prefillTemplate(file(PAGE + input("clickId")))).toThrow(/clickId/);
  });
});
