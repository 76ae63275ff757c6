import { data, Link } from "react-router";
import type { Route } from "./+types/blog";
import { ArticleCard } from "~/components/blog/article-card";
import { TRENDING_TOPICS } from "~/components/blog/trending-topics";
import { JsonLd } from "~/components/site/json-ld";
import { ALL_POSTS_LABEL, ARTICLE_CATEGORIES, categoryBySlug } from "~/config/categories";
import { blogListPage } from "~/content/index";
import { ensurePublishedContent } from "~/content/published-content.server";
import { cn } from "~/lib/cn";
import { ArticleImage, SponsoredLabel } from "~/components/articles/article-image";
import { formatLongDate } from "~/lib/dates";
import { pageMeta } from "~/lib/route-meta";
import { Pager } from "~/components/blog/pager";
import { SearchForm } from "~/components/blog/search-form";
import { pageHref, requestedPage } from "~/content/paging";
import { ARCHIVE_TEXTS } from "~/lib/archive-texts";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const url = new URL(request.url);
  const slug = url.searchParams.get("category");
  const category = categoryBySlug(slug);
  // A mistyped or retired category is a missing page, not the whole list under a wrong address.
  if (slug !== null && !category) throw data(null, { status: 404 });
  return blogListPage(category, requestedPage(url));
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const category = loaderData?.category;
  const page = loaderData?.page ?? 1;
  const pageCount = loaderData?.pageCount ?? 1;
  const params = { category: category?.slug };
  const tags = pageMeta(matches, {
    title: ARCHIVE_TEXTS.titleOnPage(category ? `${category.name} Articles` : "Market Insights Blog", page),
    description: category
      ? `Conservative, plain-spoken ${category.name.toLowerCase()} articles for American retail investors.`
      : "Market analysis, precious metals, bonds, retirement planning and wealth-building articles for American retail investors.",
    path: pageHref("/blog", page, params),
    prev: page > 1 ? pageHref("/blog", page - 1, params) : undefined,
    next: page < pageCount ? pageHref("/blog", page + 1, params) : undefined,
  });
  // The category's own feed, beside the site's (the root links /rss.xml on every page).
  return category ? [...tags, { tagName: "link", rel: "alternate", type: "application/rss+xml", title: ARCHIVE_TEXTS.categoryFeed(category.name), href: `/rss/${category.slug}.xml` }] : tags;
};

const buttonClass = (active: boolean) =>
  cn(
    "inline-flex h-10 items-center rounded-full border-2 px-4 text-sm font-semibold transition-colors",
    active
      ? "border-primary bg-primary text-primary-foreground"
      : "border-border bg-card text-primary hover:border-primary",
  );

export default function Blog({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const { category, featured, grid, page, pageCount } = loaderData;
  return (
    <>
      <JsonLd data={breadcrumbJsonLd(site, [{ name: "Blog", path: "/blog" }])} />
      <section className="bg-primary py-14 text-center text-white">
        <div className="mx-auto max-w-4xl px-4">
          <h1 className="text-4xl font-extrabold md:text-5xl">Market Insights</h1>
          <p className="mt-4 text-lg text-on-primary-muted">
            Conservative analysis of stocks, bonds, precious metals and retirement, written for Americans who want to
            keep what they earn.
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-12">
        {featured ? (
          <section aria-labelledby="featured-heading" className="mb-14">
            <h2 id="featured-heading" className="text-sm font-bold uppercase tracking-widest text-accent-strong">
              Featured Article
            </h2>
            <article className="mt-4 grid overflow-hidden rounded-lg border border-border bg-card shadow-sm md:grid-cols-2">
              <ArticleImage src={featured.image} alt="" sizes="(min-width: 768px) 640px, 100vw" priority className="h-full w-full object-cover" />
              <div className="flex flex-col justify-center p-8">
                {featured.sponsored ? <SponsoredLabel sponsorName={featured.sponsorName} className="mb-2 text-muted-foreground" /> : null}
                <p className="text-xs font-bold uppercase tracking-widest text-accent-strong">{featured.category}</p>
                <h3 className="mt-2 text-3xl font-extrabold leading-tight text-primary">
                  <Link to={`/articles/${featured.slug}`} className="hover:underline">
                    {featured.title}
                  </Link>
                </h3>
                <p className="mt-3 text-muted-foreground">{featured.excerpt}</p>
                <p className="mt-4 text-sm text-muted-foreground">
                  <Link to={`/authors/${featured.authorSlug}`} className="hover:underline">
                    {featured.author}
                  </Link>{" "}
                  · <time dateTime={featured.date}>{formatLongDate(featured.date)}</time> ·{" "}
                  {featured.readingMinutes} min read
                </p>
              </div>
            </article>
          </section>
        ) : null}

        <nav aria-label="Article categories">
          <ul className="flex flex-wrap gap-3">
            <li>
              <Link to="/blog" className={buttonClass(!category)} aria-current={!category ? "page" : undefined}>
                {ALL_POSTS_LABEL}
              </Link>
            </li>
            {ARTICLE_CATEGORIES.map((item) => (
              <li key={item.slug}>
                <Link
                  to={`/blog?category=${item.slug}`}
                  className={buttonClass(category?.slug === item.slug)}
                  aria-current={category?.slug === item.slug ? "page" : undefined}
                >
                  {item.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="mt-10 grid gap-10 lg:grid-cols-4">
          <section aria-labelledby="articles-heading" className="lg:col-span-3">
            <h2 id="articles-heading" className="text-2xl font-extrabold text-primary">
              {category ? category.name : "Latest Articles"}
              {pageCount > 1 ? <span className="ml-2 text-base font-semibold text-muted-foreground">{ARCHIVE_TEXTS.pageOf(page, pageCount)}</span> : null}
            </h2>
            {grid.length === 0 ? (
              <p className="mt-6 text-muted-foreground">{ARCHIVE_TEXTS.noArticlesInCategory}</p>
            ) : (
              <div className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-3">
                {grid.map((article) => (
                  <ArticleCard key={article.slug} article={article} newTab />
                ))}
              </div>
            )}
            <Pager path="/blog" params={{ category: category?.slug }} page={page} pageCount={pageCount} />
            <p className="mt-8 text-sm">
              <a href={category ? `/rss/${category.slug}.xml` : "/rss.xml"} className="font-semibold text-primary underline">
                {category ? ARCHIVE_TEXTS.categoryFeed(category.name) : ARCHIVE_TEXTS.siteFeed}
              </a>
            </p>
          </section>
          <aside aria-labelledby="trending-heading">
            <SearchForm id="blog-search" iconButton className="mb-6" />
            <div className="rounded-lg border border-border bg-muted p-6">
              <h2 id="trending-heading" className="text-lg font-extrabold text-primary">
                Trending Topics
              </h2>
              <ol className="mt-4 space-y-3">
                {TRENDING_TOPICS.map((topic, index) => (
                  <li key={topic.label} className="flex gap-3">
                    <span className="font-extrabold text-accent-strong">{index + 1}.</span>
                    <Link to={topic.href} className="font-semibold text-primary hover:underline">
                      {topic.label}
                    </Link>
                  </li>
                ))}
              </ol>
            </div>
          </aside>
        </div>
      </div>
    </>
  );
}
