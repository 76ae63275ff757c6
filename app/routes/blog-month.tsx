import { data, Link } from "react-router";
import type { Route } from "./+types/blog-month";
import { ArticleCard } from "~/components/blog/article-card";
import { Pager } from "~/components/blog/pager";
import { JsonLd } from "~/components/site/json-ld";
import { getArchiveMonths, getArticlesInMonth } from "~/content/index";
import { pageHref, paginate, requestedPage } from "~/content/paging";
import { ensurePublishedContent } from "~/content/published-content.server";
import { toTeaser } from "~/content/teasers";
import { ARCHIVE_TEXTS } from "~/lib/archive-texts";
import { formatMonth } from "~/lib/dates";
import { pageMeta } from "~/lib/route-meta";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

/**
 * The archive by month, `/blog/2025/12`: the articles of that month (New York days), paginated,
 * with links to the nearest earlier and later months that have articles. Rendered per request from
 * the snapshot (decision 073). A month with no article, or anything that is not a month, is a 404.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  await ensurePublishedContent();
  if (!/^[0-9]{4}$/.test(params.year) || !/^(0[1-9]|1[0-2])$/.test(params.month)) throw data(null, { status: 404 });
  const month = `${params.year}-${params.month}`;
  const articles = getArticlesInMonth(month);
  if (articles.length === 0) throw data(null, { status: 404 });
  const paged = paginate(articles, requestedPage(new URL(request.url)));
  const months = getArchiveMonths().map((entry) => entry.month);
  const at = months.indexOf(month);
  return {
    month,
    label: formatMonth(month),
    articles: paged.items.map(toTeaser),
    page: paged.page,
    pageCount: paged.pageCount,
    total: paged.total,
    later: at > 0 ? months[at - 1]! : null,
    earlier: at >= 0 && at < months.length - 1 ? months[at + 1]! : null,
  };
}

const monthPath = (month: string) => `/blog/${month.replace("-", "/")}`;

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  if (!loaderData) return pageMeta(matches, { title: "Page Not Found", description: "The page you were looking for does not exist.", path: `/blog/${params.year}/${params.month}`, noindex: true });
  const { month, label, page, pageCount } = loaderData;
  const path = monthPath(month);
  return pageMeta(matches, {
    title: ARCHIVE_TEXTS.titleOnPage(ARCHIVE_TEXTS.monthHeading(label), page),
    description: ARCHIVE_TEXTS.monthDescription(label),
    path: pageHref(path, page),
    prev: page > 1 ? pageHref(path, page - 1) : undefined,
    next: page < pageCount ? pageHref(path, page + 1) : undefined,
  });
};

export default function BlogMonth({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const { month, label, articles, page, pageCount, earlier, later } = loaderData;
  const path = monthPath(month);
  return (
    <>
      <JsonLd data={breadcrumbJsonLd(site, [{ name: "Blog", path: "/blog" }, { name: label, path }])} />
      <section className="bg-primary py-14 text-center text-white">
        <div className="mx-auto max-w-4xl px-4">
          <h1 className="text-4xl font-extrabold md:text-5xl">{ARCHIVE_TEXTS.monthHeading(label)}</h1>
          {pageCount > 1 ? <p className="mt-4 text-lg text-on-primary-muted">{ARCHIVE_TEXTS.pageOf(page, pageCount)}</p> : null}
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-12">
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {articles.map((article) => (
            <ArticleCard key={article.slug} article={article} headingLevel="h2" />
          ))}
        </div>
        <Pager path={path} page={page} pageCount={pageCount} />
        {earlier || later ? (
          <nav aria-label={ARCHIVE_TEXTS.monthNavLabel} className="mt-10">
            <ul className="flex flex-wrap justify-between gap-4">
              <li>{earlier ? <Link to={monthPath(earlier)} className="font-semibold text-primary underline">{ARCHIVE_TEXTS.earlierMonth(formatMonth(earlier))}</Link> : null}</li>
              <li>{later ? <Link to={monthPath(later)} className="font-semibold text-primary underline">{ARCHIVE_TEXTS.laterMonth(formatMonth(later))}</Link> : null}</li>
            </ul>
          </nav>
        ) : null}
      </div>
    </>
  );
}
