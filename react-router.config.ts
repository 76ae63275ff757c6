import type { Config } from "@react-router/dev/config";
import { PRERENDERED_PATHS } from "./app/config/rendering";

export default {
  ssr: true,
  // React Router 8's changes, each off until the move to 8 (it needs Node 22.22, decision 095):
  // named here so the build states the choice instead of warning about it on every run.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
  // Pages that do not depend on the database. Articles, the blog, the home page, RSS, the sitemap
  // and the author pages are rendered from the database at start and on every change
  // (server/live-pages.ts, decision 049): the build has no database.
  async prerender() {
    return [...PRERENDERED_PATHS];
  },
} satisfies Config;
