import { data } from "react-router";
import type { Route } from "./+types/preview.article";
import { ArticleView } from "~/components/articles/article-view";
import { articlePage } from "~/content/article-page.server";
import { authSecret } from "~/auth/secret.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { ARTICLE_TEXTS } from "~/lib/article-texts";
import { pageMeta } from "~/lib/route-meta";
import { loadWorkingCopy } from "~/services/content/published.server";
import { verifyPreviewToken } from "~/services/content/preview-token.server";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

const NOINDEX = { "X-Robots-Tag": "noindex", "Cache-Control": "private, no-store" };

/**
 * A signed link to the working copy of an article, in the public layout (decision 052). Rendered
 * per request, never kept in memory, never indexed; a wrong or expired token is a plain 404.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!/^[0-9a-f-]{36}$/.test(params.id) || !verifyPreviewToken(authSecret(getEnv()), params.id, token)) throw data(null, { status: 404, headers: NOINDEX });
  const copy = await loadWorkingCopy(await getDb(), params.id);
  if (!copy) throw data(null, { status: 404, headers: NOINDEX });
  return data({ article: articlePage(copy.article, copy.body, undefined, getPublicSiteConfig(), []) }, { headers: NOINDEX });
}

export function headers() {
  return NOINDEX;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return pageMeta(matches, { title: "Page Not Found", description: "The page you were looking for does not exist.", path: "/blog", noindex: true });
  const { article } = loaderData;
  return pageMeta(matches, { title: article.seoTitle ?? article.title, description: article.seoDescription ?? (article.excerpt || article.title), path: `/articles/${article.slug}`, noindex: true });
};

export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return (
    <>
      <p role="status" className="bg-accent px-4 py-2 text-center text-sm font-semibold text-accent-foreground">
        {ARTICLE_TEXTS.previewBanner}
      </p>
      <ArticleView article={loaderData.article} site={site} />
    </>
  );
}
