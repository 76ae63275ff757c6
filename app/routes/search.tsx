import { data, Link } from "react-router";
import type { Route } from "./+types/search";
import { Pager } from "~/components/blog/pager";
import { SearchForm } from "~/components/blog/search-form";
import { getArticle } from "~/content/index";
import { requestedPage } from "~/content/paging";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getDb } from "~/db/database.server";
import { ARCHIVE_TEXTS } from "~/lib/archive-texts";
import { formatLongDate } from "~/lib/dates";
import { pageMeta } from "~/lib/route-meta";
import { searchArticles } from "~/services/content/search.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

/** `/search?q=…`: a GET form's page, rendered per request, never indexed (decision 074). */
export async function loader({ request }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const url = new URL(request.url);
  const page = requestedPage(url);
  const raw = url.searchParams.get("q") ?? "";
  const results = await searchArticles(await getDb(), raw, page);
  if (page > 1 && results.hits.length === 0) throw data(null, { status: 404 });
  // The teaser facts come from this process's snapshot; a hit published or removed a moment ago
  // and not in it yet is left out.
  const hits = results.hits.flatMap((hit) => {
    const article = getArticle(hit.slug);
    return article ? [{ slug: article.slug, title: article.title, category: article.category, author: article.author, date: article.date, snippet: hit.snippet }] : [];
  });
  return { query: results.query, hits, total: results.total, page, pageCount: results.pageCount };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.query ? ARCHIVE_TEXTS.titleOnPage(ARCHIVE_TEXTS.searchResultsFor(loaderData.query), loaderData.page) : ARCHIVE_TEXTS.searchTitle,
    description: ARCHIVE_TEXTS.searchDescription,
    path: "/search",
    noindex: true,
  });

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, hits, total, page, pageCount } = loaderData;
  return (
    <>
      <section className="bg-primary py-14 text-center text-white">
        <div className="mx-auto max-w-4xl px-4">
          <h1 className="text-4xl font-extrabold md:text-5xl">{ARCHIVE_TEXTS.searchHeading}</h1>
        </div>
      </section>
      <div className="mx-auto max-w-3xl px-4 py-12">
        <SearchForm id="search-page" defaultValue={query} />
        {!query ? (
          <p className="mt-8 text-muted-foreground">{ARCHIVE_TEXTS.searchEmptyQuery}</p>
        ) : total === 0 ? (
          <p className="mt-8 text-muted-foreground" role="status">
            {ARCHIVE_TEXTS.searchNoResults(query)}
          </p>
        ) : (
          <section aria-labelledby="results-heading" className="mt-8">
            <h2 id="results-heading" className="text-2xl font-extrabold text-primary">
              {ARCHIVE_TEXTS.searchResultsFor(query)}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground" role="status">
              {ARCHIVE_TEXTS.searchCount(total)}
              {pageCount > 1 ? ` · ${ARCHIVE_TEXTS.pageOf(page, pageCount)}` : null}
            </p>
            <ol className="mt-6 space-y-8">
              {hits.map((hit) => (
                <li key={hit.slug}>
                  <p className="text-xs font-bold uppercase tracking-widest text-accent-strong">{hit.category}</p>
                  <h3 className="mt-1 text-xl font-extrabold text-primary">
                    <Link to={`/articles/${hit.slug}`} className="hover:underline">
                      {hit.title}
                    </Link>
                  </h3>
                  <p className="mt-2 leading-relaxed text-foreground">
                    {hit.snippet.map((part, index) => (part.hit ? <mark key={index} className="rounded-sm bg-gold-soft px-0.5 text-foreground">{part.text}</mark> : <span key={index}>{part.text}</span>))}
                  </p>
                  <p className="mt-2 text-sm text-muted-foreground">
                    {hit.author} · <time dateTime={hit.date}>{formatLongDate(hit.date)}</time>
                  </p>
                </li>
              ))}
            </ol>
            <Pager path="/search" params={{ q: query }} page={page} pageCount={pageCount} />
          </section>
        )}
      </div>
    </>
  );
}
