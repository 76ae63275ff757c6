import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { visitorPagesRunning, type ModuleGraph } from "./scripts/visitor-pages.mjs";

/** Code every hydrated page runs (framework and shared components): one chunk, fewer requests, better compression. */
const SHARED_CLIENT_CODE =
  /\/app\/(components\/(ui|forms|site|blog)|lib|config)\/|\/app\/components\/[\w-]+\/[\w-]+-seo\.ts$|\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser|clsx|class-variance-authority)\//;
/**
 * Kept out of the shared chunk: loaded on demand by the root (which counts as every page below), or
 * run by some hydrating pages but not all (the form field: the home page would download it); the
 * admin-only names date from before the rule below. Icon data (`lucide`) is in no group: it goes
 * with the pages that draw it.
 */
const NOT_SHARED_CLIENT_CODE =
  /\/(newsletter-section|notify|field|contact-form|not-found-view|error-view|url-notice|notices|sms-guidance|opt-in-chart|zoned-time|audience-form|short-links|trending-topics)\.tsx?$/;
/**
 * Our own code joins the shared chunk only when at least two hydrating visitor pages run it (the
 * root route runs on all): code of the admin area, of pages without JavaScript or of a single page
 * goes with the pages that use it, without having to be named above (decision 148).
 */
const OUR_CODE = /\/app\//;

/**
 * Rolldown's note that plugins took most of the build's time (they do: Tailwind and React Router's
 * transforms) is true of every build and asks nothing of us: off, so a build prints no warning.
 */
const CHECKS = { bundlerTimings: false };

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: {
    rollupOptions: isSsrBuild
      ? // The production server is part of the server bundle so that it shares one module graph
        // (one configuration, one logger, one database handle) with the routes.
        // Its chunks are never downloaded, so a dynamic import that splits nothing there (the
        // pages split for the browser) is no news; the client build keeps that check.
        { input: "./server/app.ts", checks: { ...CHECKS, ineffectiveDynamicImport: false } }
      : {
          checks: CHECKS,
          output: {
            codeSplitting: {
              groups: [
                {
                  priority: 1,
                  test: (id: string) => SHARED_CLIENT_CODE.test(id) && !NOT_SHARED_CLIENT_CODE.test(id),
                  // One chunk named "shared"; null leaves a module to the bundler's own splitting.
                  name: (id: string, graph: ModuleGraph) =>
                    !OUR_CODE.test(id) || visitorPagesRunning(id, graph) >= 2 ? "shared" : null,
                },
              ],
            },
          },
        },
  },
}));
