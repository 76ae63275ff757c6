import { data } from "react-router";
import type { Route } from "./+types/author";
import { ArticleCard } from "~/components/blog/article-card";
import { ArticleImage } from "~/components/articles/article-image";
import { personJsonLd } from "~/components/articles/article-json-ld";
import { JsonLd } from "~/components/site/json-ld";
import { authorPageContent, getAuthor } from "~/content/index";
import { ensurePublishedContent } from "~/content/published-content.server";
import { pageMeta } from "~/lib/route-meta";
import { Pager } from "~/components/blog/pager";
import { pageHref, requestedPage } from "~/content/paging";
import { ARCHIVE_TEXTS } from "~/lib/archive-texts";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

/** Who wrote it: an author with published articles has a page; anyone else is a 404. */
export async function loader({ params, request }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const author = getAuthor(params.slug);
  if (!author) throw data(null, { status: 404 });
  return authorPageContent(author, requestedPage(new URL(request.url)));
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  if (!loaderData) return pageMeta(matches, { title: "Page Not Found", description: "The page you were looking for does not exist.", path: `/authors/${params.slug}`, noindex: true });
  const { author, page, pageCount } = loaderData;
  const path = `/authors/${author.slug}`;
  return pageMeta(matches, {
    title: ARCHIVE_TEXTS.titleOnPage(`${author.name}${author.credentials ? `, ${author.credentials}` : ""}`, page),
    description: (author.bio || `Articles by ${author.name}.`).slice(0, 160),
    path: pageHref(path, page),
    prev: page > 1 ? pageHref(path, page - 1) : undefined,
    next: page < pageCount ? pageHref(path, page + 1) : undefined,
    image: author.photo ?? undefined,
    imageAlt: author.photo ? `Photo of ${author.name}` : undefined,
  });
};

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const { author, articles, page, pageCount } = loaderData;
  return (
    <>
      <JsonLd data={{ "@context": "https://schema.org", ...personJsonLd(site, author) }} />
      <JsonLd data={breadcrumbJsonLd(site, [{ name: "Blog", path: "/blog" }, { name: author.name, path: `/authors/${author.slug}` }])} />
      <section className="bg-primary py-14 text-white">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-6 px-4 text-center md:flex-row md:text-left">
          {author.photo ? <ArticleImage src={author.photo} alt={`Photo of ${author.name}`} width={160} height={160} priority className="h-40 w-40 rounded-full object-cover" /> : null}
          <div>
            <h1 className="text-4xl font-extrabold md:text-5xl">{author.name}</h1>
            {author.credentials ? <p className="mt-2 text-lg text-on-primary-muted">{author.credentials}</p> : null}
          </div>
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-12">
        {author.bio ? (
          <section aria-labelledby="about-author" className="mx-auto max-w-3xl">
            <h2 id="about-author" className="text-2xl font-extrabold text-primary">
              About {author.name}
            </h2>
            {author.bio.split(/\n\s*\n/).map((paragraph, index) => (
              <p key={index} className="mt-4 leading-relaxed text-foreground">
                {paragraph}
              </p>
            ))}
          </section>
        ) : null}
        {author.links.length > 0 ? (
          <nav aria-label={`${author.name} elsewhere`} className="mx-auto mt-6 max-w-3xl">
            <ul className="flex flex-wrap gap-4">
              {author.links.map((link) => (
                <li key={link.url}>
                  <a href={link.url} rel="me noopener" className="font-semibold text-accent-strong underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <section aria-labelledby="author-articles" className="mt-12">
          <h2 id="author-articles" className="text-2xl font-extrabold text-primary">
            Articles by {author.name}
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            {articles.map((article) => (
              <ArticleCard key={article.slug} article={article} />
            ))}
          </div>
          <Pager path={`/authors/${author.slug}`} page={page} pageCount={pageCount} />
        </section>
      </div>
    </>
  );
}
