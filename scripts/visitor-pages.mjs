// Which of the pages a visitor's browser hydrates run a module: the client build asks it of each
// module of the shared chunk's folders (vite.config.ts, decision 148). Plain JavaScript with its
// types beside it (visitor-pages.d.mts), so that Vite's config loader can read it as it is.
import { readFileSync } from "node:fs";

/** The root route runs on every page: it counts as all of them. */
export const EVERY_PAGE = Number.POSITIVE_INFINITY;

const ROUTE_FILE = /\/app\/(root\.tsx|routes\/[^/?]+)(?:\?.*)?$/;

/** A route module whose page ships no JavaScript (`handle = { hydrate: false }`, app/root.tsx). */
const SHIPS_NO_JAVASCRIPT = /\bhydrate:\s*false\b/;

const hydratesForVisitors = new Map();

/** Pages of the admin area and pages without JavaScript do not count: visitors never download their code. */
export function isHydratingVisitorPage(file, readSource = (path) => readFileSync(path, "utf8")) {
  let known = hydratesForVisitors.get(file);
  if (known === undefined) {
    known = !/\/routes\/admin-/.test(file) && !SHIPS_NO_JAVASCRIPT.test(readSource(file));
    hydratesForVisitors.set(file, known);
  }
  return known;
}

/**
 * How many hydrating visitor pages run `id`, through static or dynamic imports (a part loaded on
 * demand, like the home page's newsletter form, still runs on that page); EVERY_PAGE when the root
 * route does. `graph` is Rolldown's chunking context (its getModuleInfo).
 */
export function visitorPagesRunning(id, graph, readSource) {
  const pages = new Set();
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.shift();
    const route = ROUTE_FILE.exec(current);
    if (route) {
      if (route[1] === "root.tsx") return EVERY_PAGE;
      const file = current.replace(/\?.*$/, "");
      if (isHydratingVisitorPage(file, readSource)) pages.add(file);
      // A route module is where a page starts: a route importing another's exports does not make
      // the imported one run on more pages.
      continue;
    }
    const info = graph.getModuleInfo(current);
    for (const importer of [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])]) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return pages.size;
}
