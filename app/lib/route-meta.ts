import type { MetaDescriptor } from "react-router";
import type { PublicSiteConfig } from "~/config/site";
import { seoMeta, type PageSeo } from "./seo";

type MetaMatch = { id: string; data?: unknown } | undefined;

/** The site configuration from the root loader, as seen by a route's `meta` function. */
export function siteFromMatches(matches: readonly MetaMatch[]): PublicSiteConfig {
  const root = matches.find((match) => match?.id === "root")?.data as { site?: PublicSiteConfig } | undefined;
  if (!root?.site) throw new Error("meta() ran without the root loader's data");
  return root.site;
}

export function pageMeta(matches: readonly MetaMatch[], page: PageSeo): MetaDescriptor[] {
  return seoMeta(siteFromMatches(matches), page);
}
