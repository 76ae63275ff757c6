import { expect, test } from "@playwright/test";
import { PUBLIC_ROUTES } from "../support/public-routes";

test.describe("pages fetched with no JavaScript", () => {
  for (const route of PUBLIC_ROUTES) {
    test(`${route.path} has its headline and first paragraph in the HTML`, async ({ request }) => {
      const response = await request.get(route.path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>\s*(?:<[^>]+>\s*)*<p[^>]*>([\s\S]*?)<\/p>/.exec(html);
      expect(h1, "an h1 followed by a paragraph").not.toBeNull();
      const text = (fragment: string) => fragment.replace(/<[^>]+>/g, "").replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&").trim();
      const heading = text(h1![1]!);
      if (typeof route.heading === "string") expect(heading).toBe(route.heading);
      else expect(heading).toMatch(route.heading);
      expect(text(h1![2]!).length).toBeGreaterThan(10);
      // Every section is in the HTML itself, not streamed behind a script that reveals it.
      expect(html).not.toMatch(/<template id="B:|<div hidden id="S:|\$RC\(/);
    });
  }

  test("article, legal, about, blog and gold pages ship no JavaScript", async ({ request }) => {
    for (const route of PUBLIC_ROUTES.filter((r) => !r.hydrates)) {
      const html = await (await request.get(route.path)).text();
      expect(html, route.path).not.toMatch(/<script(?![^>]*application\/ld\+json)[^>]*>/);
      expect(html, route.path).not.toContain("modulepreload");
    }
  });
});
