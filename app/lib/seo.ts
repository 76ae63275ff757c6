import type { MetaDescriptor } from "react-router";
import type { PublicSiteConfig } from "~/config/site";
import { mediaFileUrl, parseMediaReference } from "./media-image";

export type PageSeo = {
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. "/about". */
  path: string;
  image?: string;
  imageAlt?: string;
  type?: "website" | "article";
  noindex?: boolean;
  publishedTime?: string;
  modifiedTime?: string;
  author?: string;
  /** Paths of the previous and next page of a paginated list (`<link rel="prev|next">`). */
  prev?: string;
  next?: string;
};

export const DEFAULT_SOCIAL_IMAGE = "/images/hero-home.svg";

export function absoluteUrl(site: Pick<PublicSiteConfig, "url">, path: string) {
  return new URL(path, `${site.url}/`).href;
}

/** The size of the PNGs scripts/social-images.mjs renders from the SVG illustrations. */
const SOCIAL_PNG_SIZE = { width: 1200, height: 675 };

/**
 * The file a social network or search engine is given for a page's image. An SVG illustration
 * becomes the PNG rendered at build time (scripts/social-images.mjs): they do not show SVG. An
 * upload's reference (`/media/<id>/<W>x<H>`) names no file: it becomes its largest JPEG.
 */
export function socialImagePath(imagePath: string) {
  const upload = parseMediaReference(imagePath);
  if (upload) return mediaFileUrl(upload.id, upload.width, "jpeg");
  if (!imagePath.endsWith(".svg")) return imagePath;
  return `/images/social/${imagePath.replace(/^\/images\//, "").replace(/\//g, "-").replace(/\.svg$/, ".png")}`;
}

/** The pixel size of socialImagePath's file where it is known (a rendered PNG, an upload). */
export function socialImageSize(imagePath: string): { width: number; height: number } | null {
  const upload = parseMediaReference(imagePath);
  if (upload) return { width: upload.width, height: upload.height };
  return imagePath.endsWith(".svg") ? SOCIAL_PNG_SIZE : null;
}

/** Title, description, canonical, OpenGraph and Twitter tags for one page. */
export function seoMeta(site: PublicSiteConfig, page: PageSeo): MetaDescriptor[] {
  const title = page.title.includes(site.name) ? page.title : `${page.title} | ${site.name}`;
  const url = absoluteUrl(site, page.path);
  const imagePath = page.image ?? DEFAULT_SOCIAL_IMAGE;
  const image = absoluteUrl(site, socialImagePath(imagePath));
  const imageSize = socialImageSize(imagePath);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    ...(imageSize
      ? [
          { property: "og:image:width", content: String(imageSize.width) },
          { property: "og:image:height", content: String(imageSize.height) },
        ]
      : []),
    { property: "og:image:alt", content: page.imageAlt ?? site.name },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: page.imageAlt ?? site.name },
  ];
  if (page.publishedTime) tags.push({ property: "article:published_time", content: page.publishedTime });
  if (page.modifiedTime) tags.push({ property: "article:modified_time", content: page.modifiedTime });
  if (page.author) tags.push({ property: "article:author", content: page.author });
  if (page.prev) tags.push({ tagName: "link", rel: "prev", href: absoluteUrl(site, page.prev) });
  if (page.next) tags.push({ tagName: "link", rel: "next", href: absoluteUrl(site, page.next) });
  if (page.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  return tags;
}

/**
 * Serialises JSON-LD for an inline <script type="application/ld+json">. Escaping "<" keeps a
 * title such as "</script><script>" from closing the element early.
 */
export function serializeJsonLd(data: unknown) {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function organizationJsonLd(site: PublicSiteConfig) {
  return {
    "@type": "Organization",
    "@id": `${site.url}/#organization`,
    name: site.name,
    url: `${site.url}/`,
    logo: absoluteUrl(site, "/favicon.svg"),
    email: site.email,
    telephone: site.phone,
    foundingDate: "2018",
    address: { "@type": "PostalAddress", addressCountry: "US" },
  };
}

export function breadcrumbJsonLd(site: PublicSiteConfig, trail: { name: string; path: string }[]) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [{ name: "Home", path: "/home" }, ...trail].map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: absoluteUrl(site, item.path),
    })),
  };
}
