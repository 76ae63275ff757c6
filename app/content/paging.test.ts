import { describe, expect, it } from "vitest";
import { pageHref, pagerNumbers, paginate, requestedPage } from "./paging";

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { status?: number; init?: { status?: number }; headers?: Headers };
  }
  throw new Error("did not throw");
};

describe("list pages", () => {
  it("reads page numbers: none is 1, page=1 redirects to the bare URL, anything else not a number is a 404", () => {
    expect(requestedPage(new URL("http://x/blog"))).toBe(1);
    expect(requestedPage(new URL("http://x/blog?category=precious-metals&page=3"))).toBe(3);
    const redirect = thrown(() => requestedPage(new URL("http://x/blog?category=precious-metals&page=1"))) as Response;
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("Location")).toBe("/blog?category=precious-metals");
    for (const bad of ["0", "-1", "02", "2.5", "abc", "", "9999999"]) expect(thrown(() => requestedPage(new URL(`http://x/blog?page=${bad}`))).init?.status, bad).toBe(404);
    expect(thrown(() => requestedPage(new URL("http://x/blog?page=2&page=3"))).init?.status).toBe(404);
  });

  it("cuts a list into pages and answers 404 past the last one (page 1 of nothing is a page)", () => {
    const items = Array.from({ length: 25 }, (_, index) => index);
    expect(paginate(items, 1)).toMatchObject({ items: items.slice(0, 12), pageCount: 3, total: 25 });
    expect(paginate(items, 3).items).toEqual([24]);
    expect(thrown(() => paginate(items, 4)).init?.status).toBe(404);
    expect(paginate([], 1)).toMatchObject({ items: [], pageCount: 1 });
  });

  it("writes page addresses and a short pager", () => {
    expect(pageHref("/blog", 1, { category: "bonds-fixed-income" })).toBe("/blog?category=bonds-fixed-income");
    expect(pageHref("/blog", 2, { category: undefined })).toBe("/blog?page=2");
    expect(pageHref("/search", 2, { q: "gold & silver" })).toBe("/search?q=gold+%26+silver&page=2");
    expect(pagerNumbers(1, 1)).toEqual([1]);
    expect(pagerNumbers(1, 500)).toEqual([1, 2, 3, null, 500]);
    expect(pagerNumbers(250, 500)).toEqual([1, null, 248, 249, 250, 251, 252, null, 500]);
    expect(pagerNumbers(4, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});
