import { data, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/article";
import { ArticleView } from "~/components/articles/article-view";
import { loadArticlePage } from "~/content/article-page.server";
import { wasRemoved } from "~/content/index";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { pageMeta } from "~/lib/route-meta";
import { ARTICLE_TEXTS } from "~/lib/article-texts";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

/** Published: the page. Never public: 404. Public once and not now: 410 (decision 050). */
export async function loader({ params }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const article = await loadArticlePage(params.slug, getPublicSiteConfig());
  if (!article) throw data(null, { status: wasRemoved(params.slug) ? 410 : 404 });
  return { article };
}

export const meta: Route.MetaFunction = ({ matches, loaderData, error, params }) => {
  if (!loaderData) {
    const removed = isRouteErrorResponse(error) && error.status === 410;
    return pageMeta(matches, {
      title: removed ? ARTICLE_TEXTS.removedTitle : "Page Not Found",
      description: removed ? ARTICLE_TEXTS.removedDescription : "The page you were looking for does not exist.",
      path: `/articles/${params.slug}`,
      noindex: true,
    });
  }
  const { article } = loaderData;
  return pageMeta(matches, {
    title: article.seoTitle ?? article.title,
    description: article.seoDescription ?? article.excerpt,
    path: `/articles/${article.slug}`,
    image: article.image,
    imageAlt: article.imageAlt,
    type: "article",
    publishedTime: article.publishedAt,
    modifiedTime: article.modifiedAt,
    author: article.author,
  });
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return <ArticleView article={loaderData.article} site={site} />;
}
