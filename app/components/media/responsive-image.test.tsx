import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArticleImage } from "~/components/articles/article-image";
import { ResponsiveImage } from "./responsive-image";

const ID = "0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f";

describe("<ResponsiveImage>", () => {
  it("renders an upload as <picture> with AVIF and WebP sources and a sized, lazy JPEG", () => {
    const html = renderToStaticMarkup(<ResponsiveImage src={`/media/${ID}/1200x800`} alt="Vault door" sizes="100vw" className="w-full" />);
    expect(html).toBe(
      `<picture><source type="image/avif" srcSet="/media/${ID}/480.avif 480w, /media/${ID}/800.avif 800w, /media/${ID}/1200.avif 1200w" sizes="100vw"/>` +
        `<source type="image/webp" srcSet="/media/${ID}/480.webp 480w, /media/${ID}/800.webp 800w, /media/${ID}/1200.webp 1200w" sizes="100vw"/>` +
        `<img src="/media/${ID}/1200.jpg" srcSet="/media/${ID}/480.jpg 480w, /media/${ID}/800.jpg 800w, /media/${ID}/1200.jpg 1200w" sizes="100vw" width="1200" height="800" alt="Vault door" loading="lazy" decoding="async" class="w-full"/></picture>`,
    );
  });

  it("loads the main image at once with high priority", () => {
    const html = renderToStaticMarkup(<ResponsiveImage src={`/media/${ID}/800x450`} alt="Cover" sizes="100vw" priority />);
    expect(html).toContain('loading="eager" fetchPriority="high"');
  });

  it("renders a site image as one <img> with the given size", () => {
    expect(renderToStaticMarkup(<ResponsiveImage src="/images/gold.webp" alt="Gold" sizes="100vw" width={1200} height={675} />)).toBe(
      '<img src="/images/gold.webp" alt="Gold" width="1200" height="675" loading="lazy" decoding="async"/>',
    );
  });

  it("is what the article covers and teasers use", () => {
    expect(renderToStaticMarkup(<ArticleImage src={`/media/${ID}/480x270`} alt="" priority />)).toMatch(/^<picture>.*fetchPriority="high".*<\/picture>$/);
    expect(renderToStaticMarkup(<ArticleImage src="/images/articles/bonds.webp" alt="" />)).toBe(
      '<img src="/images/articles/bonds.webp" alt="" width="1200" height="675" loading="lazy" decoding="async"/>',
    );
  });
});
