import type { Config } from "@react-router/dev/config";
import { PRERENDERED_PATHS } from "./app/config/rendering";

export default {
  ssr: true,
  // Pages that do not depend on the database. Articles, the blog, the home page, RSS, the sitemap
  // and the author pages are rendered from the database at start and on every change
  // (server/live-pages.ts, decision 049): the build has no database.
  async prerender() {
    return [...PRERENDERED_PATHS];
  },
} satisfies Config;
