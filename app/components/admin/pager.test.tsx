import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Pager } from "./pager";

const render = (props: Parameters<typeof Pager>[0]) => renderToStaticMarkup(<MemoryRouter><Pager {...props} /></MemoryRouter>);
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));

describe("the admin pager", () => {
  it("keeps the list's filters on Previous and Next", () => {
    const html = render({ page: 2, pages: 3, params: { status: "draft", q: "gold & silver" } });
    expect(hrefs(html)).toEqual(["/?status=draft&q=gold+%26+silver&page=1", "/?status=draft&q=gold+%26+silver&page=3"]);
    expect(html).toContain("Page 2 of 3");
  });

  it("offers no Previous on the first page and no Next on the last", () => {
    expect(hrefs(render({ page: 1, pages: 1 }))).toEqual([]);
    expect(render({ page: 1, pages: 2 })).not.toContain("Previous");
    expect(render({ page: 2, pages: 2 })).not.toContain("Next");
  });
});
