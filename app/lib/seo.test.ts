import { describe, expect, it } from "vitest";
import { absoluteUrl, seoMeta, serializeJsonLd } from "./seo";

const site = {
  name: "Patriot Investor",
  url: "https://patriotinvestor.example",
  email: "a@b.example",
  phone: "1-800-555-0199",
  offerUrl: "https://offer.example",
  year: 2026,
};

describe("serializeJsonLd", () => {
  it("never lets a value close the script element", () => {
    const json = serializeJsonLd({ headline: "</script><script>alert(1)</script>" });
    expect(json).not.toContain("</script");
    expect(json).toContain("\\u003c/script");
    expect(JSON.parse(json)).toEqual({ headline: "</script><script>alert(1)</script>" });
  });
});

describe("seoMeta", () => {
  it("gives an absolute canonical URL and the social tags", () => {
    const tags = seoMeta(site, { title: "About Us", description: "About the site.", path: "/about" });
    expect(tags).toContainEqual({ title: "About Us | Patriot Investor" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://patriotinvestor.example/about" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://patriotinvestor.example/about" });
    expect(tags).toContainEqual({ name: "twitter:card", content: "summary_large_image" });
    expect(tags.find((tag) => "name" in tag && tag.name === "robots")).toBeUndefined();
  });

  it("marks noindex pages", () => {
    const tags = seoMeta(site, { title: "Sign In", description: "x", path: "/auth", noindex: true });
    expect(tags).toContainEqual({ name: "robots", content: "noindex, nofollow" });
  });

  it("resolves paths against the site URL", () => {
    expect(absoluteUrl(site, "/images/a.svg")).toBe("https://patriotinvestor.example/images/a.svg");
  });
});

describe("socialImagePath", () => {
  it("maps an illustration to its build-time PNG", async () => {
    const { socialImagePath } = await import("./seo");
    expect(socialImagePath("/images/articles/bonds-guide.svg")).toBe("/images/social/articles-bonds-guide.png");
    expect(socialImagePath("/images/hero-home.svg")).toBe("/images/social/hero-home.png");
    expect(socialImagePath("/images/photo.webp")).toBe("/images/photo.webp");
  });

  it("maps an upload's reference, which names no file, to its largest JPEG with its real size", () => {
    const id = "0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f";
    const tags = seoMeta(site, { title: "Gold", description: "x", path: "/articles/gold", image: `/media/${id}/1200x1800` });
    expect(tags).toContainEqual({ property: "og:image", content: `https://patriotinvestor.example/media/${id}/1200.jpg` });
    expect(tags).toContainEqual({ name: "twitter:image", content: `https://patriotinvestor.example/media/${id}/1200.jpg` });
    expect(tags).toContainEqual({ property: "og:image:width", content: "1200" });
    expect(tags).toContainEqual({ property: "og:image:height", content: "1800" });
  });
});
