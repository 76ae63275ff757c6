import { describe, expect, it } from "vitest";
import { LANDING_VALUE_MAX, NO_LANDING, readLanding } from "./landing";

describe("landing parameters", () => {
  it("reads utm_*, which click ids are present, and sub1…sub5", () => {
    expect(readLanding("f_name=Betsy&sub2=cl1ck-4d-7f3a9e&utm_source=Facebook&utm_medium=CPC&utm_campaign=Gold%20Spring&gclid=Cj0&fbclid=IwAR&sub5=x")).toEqual({
      source: "facebook",
      medium: "cpc",
      campaign: "Gold Spring",
      clickIds: ["gclid", "fbclid"],
      subs: ["", "cl1ck-4d-7f3a9e", "", "", "x"],
    });
  });

  it("counts a click id as present only with a value, and keeps its value nowhere", () => {
    const landing = readLanding("gclid=&gbraid=%20&wbraid=A&msclkid=B&ttclid=C");
    expect(landing.clickIds).toEqual(["wbraid", "msclkid", "ttclid"]);
    expect(JSON.stringify(landing)).not.toContain('"A"');
  });

  it("is empty for no query, and cleans control characters and over-long values", () => {
    expect(readLanding("")).toBe(NO_LANDING);
    expect(readLanding("utm_source=%01a%0Ab%7F&sub1=%20%20s1%20")).toMatchObject({ source: "ab", subs: ["s1", "", "", "", ""] });
    expect(readLanding(`utm_campaign=${"c".repeat(500)}`).campaign).toHaveLength(LANDING_VALUE_MAX);
    expect(readLanding("%zz=1&utm_source=x").source).toBe("x");
  });
});
