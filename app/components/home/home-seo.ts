import { SITE_DESCRIPTION, type PublicSiteConfig } from "~/config/site";
import { organizationJsonLd } from "~/lib/seo";

export const HOME_SEO = {
  title: "Conservative Market Insight for American Investors",
  description: SITE_DESCRIPTION,
};

export function homeJsonLd(site: PublicSiteConfig) {
  return {
    "@context": "https://schema.org",
    "@graph": [
      organizationJsonLd(site),
      {
        "@type": "WebSite",
        "@id": `${site.url}/#website`,
        url: `${site.url}/`,
        name: site.name,
        description: SITE_DESCRIPTION,
        inLanguage: "en-US",
        publisher: { "@id": `${site.url}/#organization` },
      },
    ],
  };
}
