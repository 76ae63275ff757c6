import { describe, expect, it } from "vitest";
import { fillOfferUrl, offerTemplateProblem } from "./offer-url";

const TEMPLATE = "https://sponsor.example/guide?aff=77&s1={sub1}&s2={sub2}&src={utm_source}&med={utm_medium}&cmp={utm_campaign}&s5={sub5}";

describe("the offer URL template", () => {
  it("fills each placeholder with its value, URL-encoded, and empties the absent ones", () => {
    expect(fillOfferUrl(TEMPLATE, { sub1: "A&b=1", sub2: "x y/ü", utm_source: "newsmax", utm_campaign: "fall #2" })).toBe(
      "https://sponsor.example/guide?aff=77&s1=A%26b%3D1&s2=x%20y%2F%C3%BC&src=newsmax&med=&cmp=fall%20%232&s5=",
    );
    expect(fillOfferUrl("https://sponsor.example/{sub3}/{sub4}", { sub3: "p", sub4: "q" })).toBe("https://sponsor.example/p/q");
  });

  it("leaves a plain URL, and braces that name no placeholder, as they are", () => {
    expect(fillOfferUrl("https://offers.example.com/free-retirement-wealth-guide", { sub1: "A" })).toBe("https://offers.example.com/free-retirement-wealth-guide");
    expect(fillOfferUrl("https://sponsor.example/?t={clickid}&s={sub1}", { sub1: "A" })).toBe("https://sponsor.example/?t={clickid}&s=A");
  });

  it("never leads anywhere but the template's own site, whatever the visit's values", () => {
    const values = ["//evil.example", "https://evil.example", "@evil.example", ".evil.example", "\\\\evil.example", "%2F%2Fevil.example", "evil.example#", "\u0000", "../../"];
    for (const template of ["https://sponsor.example/{sub1}", "https://sponsor.example/?s={sub1}", "https://sponsor.example/#{sub1}", "https://sponsor.example{sub1}/x", "https://{sub1}sponsor.example/"]) {
      for (const value of values) {
        const url = new URL(fillOfferUrl(template, { sub1: value, utm_source: value }));
        expect(url.origin, `${template} with ${value}`).toBe(new URL(template.replace("{sub1}", "")).origin);
      }
    }
  });

  it("refuses at start a template with a placeholder in the scheme, host or port", () => {
    expect(offerTemplateProblem(TEMPLATE)).toBeUndefined();
    expect(offerTemplateProblem("https://sponsor.example/")).toBeUndefined();
    expect(offerTemplateProblem("https://sponsor.example?s={sub1}")).toBeUndefined();
    expect(offerTemplateProblem("https://sponsor.example#{sub1}")).toBeUndefined();
    for (const template of ["https://{sub1}.example/", "https://sponsor.example{sub1}/", "https://sponsor.example:{sub1}/", "https://{sub1}@sponsor.example/"]) {
      expect(offerTemplateProblem(template), template).toMatch(/only after the host/);
    }
    expect(offerTemplateProblem("{utm_source}://sponsor.example/")).toBeDefined();
    expect(offerTemplateProblem("not a url")).toMatch(/absolute/);
  });
});
