import type { Config } from "@react-router/dev/config";
import { loadArticlesFromDisk } from "./app/content/articles-from-disk";
import { PRERENDERED_PATHS } from "./app/config/rendering";

export default {
  ssr: true,
  // Reading every article here validates the frontmatter (zod) before anything is rendered:
  // a broken article fails the build instead of a page.
  async prerender() {
    const articles = loadArticlesFromDisk();
    return [...PRERENDERED_PATHS, ...articles.map((article) => `/articles/${article.slug}`)];
  },
} satisfies Config;
