import { setSnapshot } from "~/content/published";
import { buildArticleIndex } from "~/content/registry";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";

/** The published snapshot as the first start makes it from the six seed articles, without a database. */
export function setSeedSnapshot() {
  setSnapshot({
    articles: buildArticleIndex(seedArticleFiles()).map(({ body: _body, ...article }, index) => ({
      ...article,
      id: article.slug,
      revisionId: index + 1,
      authorSlug: article.author.toLowerCase().replace(/\s+/g, "-"),
      publishedAt: `${article.date}T13:00:00.000Z`,
      modifiedAt: `${article.updated ?? article.date}T13:00:00.000Z`,
      seoTitle: null,
      seoDescription: null,
      sponsored: false,
      sponsorName: null,
    })),
    authors: [],
    removedSlugs: new Set(),
    loadedAt: 1,
  });
}
