import { describe, expect, it } from "vitest";
import { expandYoast, type YoastContext } from "./yoast";

const context = (fields: Partial<YoastContext> = {}): YoastContext => ({
  title: "Gold in March",
  siteName: "Liberty Ledger",
  siteDescription: "Sound money, plainly told",
  excerpt: "Why gold rose.",
  categories: ["Gold & Silver", "Markets"],
  tags: ["Federal Reserve", "Inflation"],
  authorName: "John Hancock",
  date: new Date("2024-03-05T14:00:00Z"),
  modified: new Date("2024-04-01T02:30:00Z"),
  now: new Date("2026-11-27T20:00:00Z"),
  meta: {},
  ...fields,
});

const text = (template: string, fields: Partial<YoastContext> = {}) => expandYoast(template, context(fields)).text;

describe("expandYoast", () => {
  it("expands Yoast's default title template", () => {
    expect(expandYoast("%%title%% %%page%% %%sep%% %%sitename%%", context())).toEqual({ text: "Gold in March - Liberty Ledger", unknown: [] });
  });

  it("expands the post's own fields", () => {
    expect(text("%%title%%|%%sitename%%|%%sitedesc%%|%%name%%")).toBe("Gold in March|Liberty Ledger|Sound money, plainly told|John Hancock");
  });

  it("joins categories and tags with a comma", () => {
    expect(text("%%category%% / %%tag%%")).toBe("Gold & Silver, Markets / Federal Reserve, Inflation");
  });

  it("takes the primary category, else the first", () => {
    expect(text("%%primary_category%%", { primaryCategory: "Markets" })).toBe("Markets");
    expect(text("%%primary_category%%")).toBe("Gold & Silver");
    expect(text("%%title%% %%sep%% %%primary_category%%", { categories: [] })).toBe("Gold in March");
  });

  it("takes the excerpt, or the content's first 155 characters for %%excerpt%% only", () => {
    expect(text("%%excerpt%%")).toBe("Why gold rose.");
    const content = `Gold   rose\nin March. ${"a".repeat(200)}`;
    expect(text("%%excerpt%%", { excerpt: "", content })).toBe(`Gold rose in March. ${"a".repeat(135)}`);
    expect(text("%%excerpt_only%%", { excerpt: "", content })).toBe("");
    expect(text("%%excerpt_only%%")).toBe("Why gold rose.");
  });

  it("writes dates as WordPress's default F j, Y, in UTC", () => {
    expect(text("%%date%%")).toBe("March 5, 2024");
    expect(text("%%modified%%")).toBe("April 1, 2024");
    expect(text("%%post_year%% %%post_month%% %%post_day%%")).toBe("2024 March 5");
  });

  it("writes dates in the site's time zone when given", () => {
    // 02:30 UTC on April 1 is still March 31 in New York.
    expect(text("%%modified%%", { timeZone: "America/New_York" })).toBe("March 31, 2024");
    expect(text("%%modified%%", { timeZone: "Not/AZone" })).toBe("April 1, 2024");
  });

  it("leaves a missing date empty", () => {
    expect(text("%%title%% %%sep%% %%date%%", { date: null })).toBe("Gold in March");
    expect(text("%%date%%|%%post_year%%", { date: new Date("nonsense") })).toBe("|");
  });

  it("takes the current date from now", () => {
    expect(text("%%currentyear%% %%currentmonth%% %%currentday%% %%currentdate%%")).toBe("2026 November 27 November 27, 2026");
    expect(text("%%currentyear%%", { now: new Date("2026-12-31T23:30:00-05:00"), timeZone: "America/New_York" })).toBe("2026");
    expect(text("%%currentyear%%", { now: new Date("2026-12-31T23:30:00-05:00") })).toBe("2027");
  });

  it("leaves the page variables empty on a single post", () => {
    expect(expandYoast("%%title%% %%page%%%%pagenumber%%%%pagetotal%% %%sep%% %%sitename%%", context())).toEqual({ text: "Gold in March - Liberty Ledger", unknown: [] });
  });

  it("uses the site's separator when given", () => {
    expect(text("%%title%% %%sep%% %%sitename%%", { separator: "|" })).toBe("Gold in March | Liberty Ledger");
    expect(text("%%title%% %%sep%% %%sitename%%", { separator: "»" })).toBe("Gold in March » Liberty Ledger");
  });

  it("takes the focus keyword from the context, else from the post's meta", () => {
    expect(text("%%focuskw%%", { focusKeyword: "gold price" })).toBe("gold price");
    expect(text("%%focuskw%%", { meta: { _yoast_wpseo_focuskw: "bullion" } })).toBe("bullion");
    expect(text("[%%focuskw%%]")).toBe("[]");
  });

  it("expands custom fields and taxonomies", () => {
    const fields = { meta: { issue: "No. 12", subtitle: "A spring rally" }, taxonomies: { series: ["Metals Week", "Spring"] } };
    expect(text("%%title%%: %%cf_subtitle%% (%%cf_issue%%)", fields)).toBe("Gold in March: A spring rally (No. 12)");
    expect(text("%%ct_series%%", fields)).toBe("Metals Week, Spring");
    expect(text("%%ct_category%% / %%ct_post_tag%%")).toBe("Gold & Silver, Markets / Federal Reserve, Inflation");
    expect(expandYoast("%%title%% %%cf_missing%% %%ct_missing%%", context())).toEqual({ text: "Gold in March", unknown: [] });
  });

  it("gives the term's title when there is one, nothing for a post", () => {
    expect(text("%%term_title%% %%sep%% %%sitename%%")).toBe("Liberty Ledger");
    expect(text("%%term_title%% %%sep%% %%sitename%%", { termTitle: "Gold & Silver" })).toBe("Gold & Silver - Liberty Ledger");
  });

  it("removes unknown variables and lists them once each", () => {
    expect(expandYoast("%%title%% %%sep%% %%wc_price%% %%sep%% %%sitename%% %%wc_price%% %%ct_desc_category%%", context())).toEqual({
      text: "Gold in March - Liberty Ledger",
      unknown: ["%%wc_price%%", "%%ct_desc_category%%"],
    });
  });

  it("collapses the separators and spaces removals leave, and drops one left at either end", () => {
    expect(text("%%title%% %%sep%% %%sep%% %%sitename%%")).toBe("Gold in March - Liberty Ledger");
    expect(text("%%sep%% %%title%% %%sep%%")).toBe("Gold in March");
    expect(text("%%title%% %%sep%% %%sitename%%", { siteName: "" })).toBe("Gold in March");
    expect(text("%%unknown%% %%sep%% %%title%%   %%sep%%  %%sitename%%")).toBe("Gold in March - Liberty Ledger");
    expect(text("  %%title%%\n\t%%sitename%%  ")).toBe("Gold in March Liberty Ledger");
  });

  it("keeps a hyphen that belongs to a word at either end", () => {
    expect(text("Top- %%title%% -end")).toBe("Top- Gold in March -end");
  });

  it("does not expand variables inside the values it puts in", () => {
    expect(text("%%title%% %%sep%% %%sitename%%", { title: "100%% %%sitename%%" })).toBe("100%% %%sitename%% - Liberty Ledger");
  });

  it("leaves text without variables as it is, but for whitespace and tags, as Yoast strips them", () => {
    expect(expandYoast("Gold  <em>in</em> March", context())).toEqual({ text: "Gold in March", unknown: [] });
    expect(text("Gold < silver > bonds")).toBe("Gold < silver > bonds");
    expect(text("50% off %%title%%")).toBe("50% off Gold in March");
  });

  it("gives an empty template back empty", () => {
    expect(expandYoast("", context())).toEqual({ text: "", unknown: [] });
  });
});
