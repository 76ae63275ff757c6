import { describe, expect, it } from "vitest";
import { MAX_PAGE_URL } from "~/lib/interaction";
import { EARLIER_PAGE_URL_CUT, pageAddressNote } from "./page-address";

const MAIN = ["news.example.com"];
const of = (length: number) => {
  const start = "https://news.example.com/opt-in?fbclid=";
  return `${start}${"x".repeat(length - start.length)}`;
};

describe("what the certificate says about a page address", () => {
  it("says it may be cut when it is exactly as long as the site cuts addresses, or cut them before", () => {
    expect(pageAddressNote(of(MAX_PAGE_URL), true, MAIN)).toEqual({ cut: MAX_PAGE_URL });
    expect(pageAddressNote(of(EARLIER_PAGE_URL_CUT), false, MAIN)).toEqual({ cut: EARLIER_PAGE_URL_CUT });
    expect(pageAddressNote(of(1_235), true, MAIN)).toBeNull();
    expect(pageAddressNote(of(MAX_PAGE_URL - 1), true, MAIN)).toBeNull();
  });

  it("says a landing host's bare origin may be what a browser sent for a longer address, where an opt-in page was rebuilt from it", () => {
    expect(pageAddressNote("https://alerts.example.net/", true, MAIN)).toBe("origin-only");
    // Nothing rebuilt from it (the API's partner page, no kept page): nothing to say.
    expect(pageAddressNote("https://alerts.example.net/", false, MAIN)).toBeNull();
    // The home page of a main domain is kept as it is: the address writes nothing into it.
    expect(pageAddressNote("https://news.example.com/", true, MAIN)).toBeNull();
    expect(pageAddressNote("https://www.news.example.com/", true, MAIN)).toBeNull();
    expect(pageAddressNote("https://alerts.example.net/?sub2=c1", true, MAIN)).toBeNull();
    expect(pageAddressNote("https://alerts.example.net/opt-in", true, MAIN)).toBeNull();
  });

  it("says nothing of no address, or of one that is not an address", () => {
    expect(pageAddressNote(null, true, MAIN)).toBeNull();
    expect(pageAddressNote("not an address", true, MAIN)).toBeNull();
  });
});
