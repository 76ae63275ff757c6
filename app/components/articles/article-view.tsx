import { Link } from "react-router";
import { ArrowLeft } from "lucide";
import { Icon } from "~/components/ui/icon";
import { JsonLd } from "~/components/site/json-ld";
import type { PublicSiteConfig } from "~/config/site";
import type { ArticlePageData } from "~/content/article-page.server";
import { formatLongDate, monthHref } from "~/lib/dates";
import { breadcrumbJsonLd } from "~/lib/seo";
import { ArticleDisclaimer } from "./article-disclaimer";
import { ArticleEnd } from "./article-end";
import { ArticleImage, SponsoredLabel } from "./article-image";
import { articleJsonLd } from "./article-json-ld";

/** The intro's container: the first block of the body, larger (the editor's preview uses it too). */
export const ARTICLE_LEDE_CLASS = "prose-article article-lede mt-10";

/** The article page's content: the public page and the signed preview of a working copy. */
export function ArticleView({ article, site }: { article: ArticlePageData; site: PublicSiteConfig }) {
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
            <Icon node={ArrowLeft} className="h-4 w-4" /> Back to Blog
          </Link>
          <p className="mt-6">
            <Link
              to={`/blog?category=${article.categorySlug}`}
              className="rounded-full bg-accent px-3 py-1 text-xs font-bold uppercase tracking-widest text-accent-foreground"
            >
              {article.category}
            </Link>
          </p>
          {article.sponsored ? <SponsoredLabel sponsorName={article.sponsorName} className="mt-4 text-white" /> : null}
          <h1 className="mt-4 text-3xl font-extrabold leading-tight md:text-5xl">{article.title}</h1>
          <p className="mt-4 text-sm text-on-primary-muted">
            By{" "}
            <Link to={`/authors/${article.authorSlug}`} rel="author" className="font-semibold text-white underline-offset-2 hover:underline">
              {article.author}
            </Link>
            {article.authorCredentials ? <span>, {article.authorCredentials}</span> : null} ·{" "}
            {/* The date opens the month's archive: older articles stay one click away (issue 26). */}
            <Link to={monthHref(article.date)} className="text-white underline-offset-2 hover:underline">
              <time dateTime={article.publishedAt}>{formatLongDate(article.date)}</time>
            </Link>{" "}
            · {article.readingMinutes} min read
          </p>
        </div>
      </header>
      <div className="mx-auto max-w-3xl px-4">
        <ArticleImage src={article.image} alt={article.imageAlt} sizes="(min-width: 768px) 768px, 100vw" priority className="-mt-2 w-full rounded-b-lg shadow-lg" />
        <div className={ARTICLE_LEDE_CLASS} dangerouslySetInnerHTML={{ __html: article.introHtml }} />
        <div className="prose-article mt-6" dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
        <ArticleDisclaimer siteName={site.name} />
        <ArticleEnd related={article.related} />
        <p className="my-12">
          <Link to="/blog" className="inline-flex items-center gap-2 font-semibold text-accent-strong hover:underline">
            <Icon node={ArrowLeft} className="h-4 w-4" /> Back to Blog
          </Link>
        </p>
      </div>
    </article>
  );
}
