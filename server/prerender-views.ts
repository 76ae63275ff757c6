import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequestHandler } from "react-router";
import { PRERENDERED_VIEWS } from "~/config/rendering";
import { getEnv } from "~/http/env.server";
import { markMemoryRender } from "~/http/csp";

/** build/views/manifest.json: which file holds which view (keys as in PRERENDERED_VIEWS). */
export type ViewManifest = { key: string; file: string }[];

/** A host that no MAIN_DOMAINS entry can be (".invalid" is reserved), for the opt-in variant of `/`. */
const OPT_IN_HOST = "opt-in.invalid";

let handler: ReturnType<typeof createRequestHandler> | undefined;

/** What React Router renders for this address and Host, as the router answers a request. */
export function renderPage(url: string, host: string) {
  handler ??= createRequestHandler(() => import("virtual:react-router/server-build"), "production");
  return handler(markMemoryRender(new Request(`http://${host}${url}`, { headers: { host } })));
}

/**
 * Renders the views React Router's prerender cannot key by path (`/` per Host, the blog's
 * category views) with the production build, like its prerender does, into `outDir`.
 * Called by scripts/prerender-views.mjs after `react-router build`.
 */
export async function prerenderViews(outDir: string) {
  const mainHost = getEnv().MAIN_DOMAINS[0]!;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const manifest: ViewManifest = [];
  for (const view of PRERENDERED_VIEWS) {
    const host = view.variant === "opt-in" ? OPT_IN_HOST : mainHost;
    const response = await renderPage(view.url, host);
    if (response.status !== 200) throw new Error(`Prerendering ${view.key} answered ${response.status}`);
    const file = `${view.key.replace(/[^a-z0-9-]+/gi, "_").replace(/^_+/, "") || "index"}.html`;
    writeFileSync(path.join(outDir, file), await response.text());
    manifest.push({ key: view.key, file });
  }
  writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return manifest.length;
}
