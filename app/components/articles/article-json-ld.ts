import type { PublicSiteConfig } from "~/config/site";
import type { PublicAuthor } from "~/content/published";
import { absoluteUrl, socialImagePath } from "~/lib/seo";

type ArticleForJsonLd = {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  authorSlug: string;
  /** Full ISO 8601 times. */
  publishedAt: string;
  modifiedAt: string;
  image: string;
  category: string;
};

/** The author as a schema.org Person (the author page and the article's `author`). */
export function personJsonLd(site: PublicSiteConfig, author: Pick<PublicAuthor, "name" | "slug" | "credentials" | "photo" | "links" | "bio">) {
  return {
    "@type": "Person",
    name: author.name,
    url: absoluteUrl(site, `/authors/${author.slug}`),
    ...(author.credentials ? { jobTitle: author.credentials } : {}),
    ...(author.bio ? { description: author.bio } : {}),
    ...(author.photo ? { image: absoluteUrl(site, socialImagePath(author.photo)) } : {}),
    ...(author.links.length > 0 ? { sameAs: author.links.map((link) => link.url) } : {}),
  };
}

export function articleJsonLd(site: PublicSiteConfig, article: ArticleForJsonLd) {
  const url = absoluteUrl(site, `/articles/${article.slug}`);
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    url,
    headline: article.title,
    description: article.excerpt,
    image: [absoluteUrl(site, socialImagePath(article.image))],
    datePublished: article.publishedAt,
    dateModified: article.modifiedAt,
    articleSection: article.category,
    inLanguage: "en-US",
    author: [{ "@type": "Person", name: article.author, url: absoluteUrl(site, `/authors/${article.authorSlug}`) }],
    publisher: {
      "@type": "Organization",
      name: site.name,
      url: `${site.url}/`,
      logo: { "@type": "ImageObject", url: absoluteUrl(site, "/favicon.svg") },
    },
  };
}
