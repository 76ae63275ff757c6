import { data, Link } from "react-router";
import { ArrowLeft } from "lucide-react";
import type { Route } from "./+types/article";
import { JsonLd } from "~/components/site/json-ld";
import { ArticleDisclaimer } from "~/components/articles/article-disclaimer";
import { ArticleEnd } from "~/components/articles/article-end";
import { articleJsonLd } from "~/components/articles/article-json-ld";
import { loadArticlePage } from "~/content/article-page.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { formatLongDate } from "~/lib/dates";
import { pageMeta } from "~/lib/route-meta";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

export function loader({ params }: Route.LoaderArgs) {
  const article = loadArticlePage(params.slug, getPublicSiteConfig());
  if (!article) throw data(null, { status: 404 });
  return { article };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { article } = loaderData;
  return pageMeta(matches, {
    title: article.title,
    description: article.excerpt,
    path: `/articles/${article.slug}`,
    image: article.image,
    imageAlt: article.imageAlt,
    type: "article",
    publishedTime: article.date,
    modifiedTime: article.updated,
    author: article.author,
  });
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const { article } = loaderData;
  return (
    <article>
      <JsonLd data={articleJsonLd(site, article)} />
      <JsonLd
        data={breadcrumbJsonLd(site, [
          { name: "Blog", path: "/blog" },
          { name: article.category, path: `/blog?category=${article.categorySlug}` },
          { name: article.title, path: `/articles/${article.slug}` },
        ])}
      />
      <header className="bg-primary text-white">
        <div className="mx-auto max-w-3xl px-4 pb-10 pt-8">
          <Link to="/blog" className="inline-flex items-center gap-2 text-sm font-semibold text-gold-soft hover:underline">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Blog
          </Link>
          <p className="mt-6">
            <Link
              to={`/blog?category=${article.categorySlug}`}
              className="rounded-full bg-accent px-3 py-1 text-xs font-bold uppercase tracking-widest text-accent-foreground"
            >
              {article.category}
            </Link>
          </p>
          <h1 className="mt-4 text-3xl font-extrabold leading-tight md:text-5xl">{article.title}</h1>
          <p className="mt-4 text-sm text-on-primary-muted">
            By <span className="font-semibold text-white">{article.author}</span> ·{" "}
            <time dateTime={article.date}>{formatLongDate(article.date)}</time> · {article.readingMinutes} min read
          </p>
        </div>
      </header>
      <div className="mx-auto max-w-3xl px-4">
        <img
          src={article.image}
          alt={article.imageAlt}
          width={1200}
          height={675}
          fetchPriority="high"
          loading="eager"
          decoding="async"
          className="-mt-2 w-full rounded-b-lg shadow-lg"
        />
        <p className="mt-10 font-serif text-xl leading-relaxed text-foreground">{article.intro}</p>
        <div className="prose-article mt-6" dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
        <ArticleDisclaimer siteName={site.name} />
        <ArticleEnd related={article.related} />
        <p className="my-12">
          <Link to="/blog" className="inline-flex items-center gap-2 font-semibold text-accent-strong hover:underline">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Blog
          </Link>
        </p>
      </div>
    </article>
  );
}
