import type { Route } from "./+types/legal";
import { JsonLd } from "~/components/site/json-ld";
import { getLegalPage, LEGAL_SLUGS, type LegalSlug } from "~/content/legal";
import { getPublicSiteConfig } from "~/http/site.server";
import { formatLongDate } from "~/lib/dates";
import { renderMarkdown } from "~/lib/markdown.server";
import { pageMeta } from "~/lib/route-meta";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

/** One module serves /privacy, /terms and /disclaimer; the path names the document. */
export function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/|\/$/g, "") as LegalSlug;
  if (!LEGAL_SLUGS.includes(slug)) throw new Response(null, { status: 404 });
  const page = getLegalPage(slug);
  return {
    slug,
    title: page.title,
    description: page.description,
    updated: page.updated,
    bodyHtml: renderMarkdown(page.body, getPublicSiteConfig()),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? pageMeta(matches, { title: loaderData.title, description: loaderData.description, path: `/${loaderData.slug}` })
    : [];

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <JsonLd data={breadcrumbJsonLd(site, [{ name: loaderData.title, path: `/${loaderData.slug}` }])} />
      <h1 className="text-4xl font-extrabold text-primary">{loaderData.title}</h1>
      <p className="mt-3 text-sm text-muted-foreground">
        Last updated <time dateTime={loaderData.updated}>{formatLongDate(loaderData.updated)}</time>
      </p>
      <div className="prose-article mt-8" dangerouslySetInnerHTML={{ __html: loaderData.bodyHtml }} />
    </article>
  );
}
