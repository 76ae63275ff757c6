import { ARTICLE_BODY_SIZES, pictureModel } from "./media-image";

function escapeAttribute(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The HTML of <ResponsiveImage> (lazy, article-body sizes) for an uploaded image's reference, or
 * false for any other address (Markdown's own <img> then applies).
 */
export function mediaPictureHtml(src: string, alt: string): string | false {
  const model = pictureModel(src);
  if (model.sources.length === 0) return false;
  const sizes = escapeAttribute(ARTICLE_BODY_SIZES);
  const sources = model.sources.map((source) => `<source type="${source.type}" srcset="${escapeAttribute(source.srcSet)}" sizes="${sizes}">`).join("");
  const img = `<img src="${escapeAttribute(model.img.src)}" srcset="${escapeAttribute(model.img.srcSet ?? "")}" sizes="${sizes}" width="${model.img.width}" height="${model.img.height}" alt="${escapeAttribute(alt)}" loading="lazy" decoding="async">`;
  return `<picture>${sources}${img}</picture>`;
}
