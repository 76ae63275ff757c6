import type { PublicSiteConfig } from "~/config/site";
import { absoluteUrl, socialImagePath } from "~/lib/seo";

type ArticleForJsonLd = {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  date: string;
  updated: string;
  image: string;
  category: string;
};

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
    datePublished: `${article.date}T08:00:00-05:00`,
    dateModified: `${article.updated}T08:00:00-05:00`,
    articleSection: article.category,
    inLanguage: "en-US",
    author: [{ "@type": "Person", name: article.author }],
    publisher: {
      "@type": "Organization",
      name: site.name,
      url: `${site.url}/`,
      logo: { "@type": "ImageObject", url: absoluteUrl(site, "/favicon.svg") },
    },
  };
}
