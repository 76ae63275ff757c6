import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The SITE_URL the prerendered pages were built with (build/build-info.json, scripts/build.mjs),
 * when it differs from this process's: their canonical links, sitemap and social tags then point
 * elsewhere. `npm start` rebuilds on such a change; `node server.mjs` serves the build as it is,
 * so it says so. Null when they agree or the build predates the note.
 */
export function bakedSiteUrlMismatch(buildDir: string, siteUrl: string): string | null {
  let baked: unknown;
  try {
    baked = (JSON.parse(readFileSync(path.join(buildDir, "build-info.json"), "utf8")) as { siteUrl?: unknown }).siteUrl;
  } catch {
    return null;
  }
  return typeof baked === "string" && baked !== siteUrl ? baked : null;
}
