import type { Db } from "~/db/client.server";
import { contentChanges, trackContentWork, type ContentChange } from "~/services/content/changes.server";
import type { JobLogger, JobLoop } from "../job-loop.server";
import { isOwnPath, requestKeys } from "./old-path";
import { LOAD_BATCH, redirectsAfter } from "./redirects.server";

/**
 * Every old address of the site in memory (decision 160): one Map from the stored old path to
 * the Location sent, looked up in O(1) with the request's keys (old-path.ts). About 120 bytes an
 * entry (measured: 100,000 redirects to 50,000 articles take some 11 MB of heap), the targets
 * shared between the old addresses of one article.
 */
export type RedirectMap = {
  readonly size: number;
  /** The Location for a request URL (path and query as sent), or undefined. */
  locationFor: (url: string) => string | undefined;
  replace: (entries: Map<string, string>) => void;
};

/** A query as a header may carry it: anything outside printable ASCII percent-encoded. */
const headerSafe = (query: string) => query.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));

export function createRedirectMap(initial = new Map<string, string>()): RedirectMap {
  let entries = initial;
  return {
    get size() {
      return entries.size;
    },
    locationFor(url) {
      if (entries.size === 0) return undefined;
      const keys = requestKeys(url);
      if (!keys) return undefined;
      if (keys.withQuery) {
        const target = entries.get(keys.withQuery);
        if (target !== undefined) return target;
      }
      const target = entries.get(keys.path);
      if (target === undefined) return undefined;
      // An old address stored without a query passes the request's on (campaign tags and all).
      const queryAt = url.indexOf("?");
      const query = queryAt < 0 ? "" : headerSafe(url.slice(queryAt + 1));
      if (!query) return target;
      const hashAt = target.indexOf("#");
      const [base, hash] = hashAt < 0 ? [target, ""] : [target.slice(0, hashAt), target.slice(hashAt)];
      return `${base}${base.includes("?") ? "&" : "?"}${query}${hash}`;
    },
    replace(next) {
      entries = next;
    },
  };
}

/**
 * The whole table, read in keyset batches so no one result holds it all. A row whose old path
 * has since become one of this site's own (a new page) is left out: a page always wins.
 */
export async function loadRedirectEntries(db: Db): Promise<{ entries: Map<string, string>; skipped: number }> {
  const entries = new Map<string, string>();
  const targets = new Map<string, string>();
  let skipped = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await redirectsAfter(db, after, LOAD_BATCH);
    for (const row of rows) {
      const queryAt = row.path.indexOf("?");
      const pathPart = queryAt < 0 ? row.path : row.path.slice(0, queryAt);
      if (pathPart === "/" ? queryAt < 0 : isOwnPath(pathPart)) {
        skipped += 1;
        continue;
      }
      let target = targets.get(row.target);
      if (target === undefined) targets.set(row.target, (target = row.target));
      entries.set(row.path, target);
    }
    if (rows.length < LOAD_BATCH) break;
    after = rows.at(-1)!.path;
  }
  return { entries, skipped };
}

/**
 * Keeps `map` current: loaded now (the first load must succeed, as the articles'), and again after
 * every change of the redirects made here or told by another process (content_changed, decision
 * 049). Reloads never overlap; changes during one fold into one more.
 */
export async function startRedirectMap(options: { db: Db; map: RedirectMap; logger: JobLogger }): Promise<JobLoop> {
  const { db, map, logger } = options;
  let stopped = false;
  const loadOnce = async () => {
    const started = performance.now();
    const { entries, skipped } = await loadRedirectEntries(db);
    if (stopped) return;
    map.replace(entries);
    logger.info({ redirects: entries.size, skipped, ms: Math.round(performance.now() - started) }, "redirects loaded");
  };
  let loading: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const reload = (): Promise<void> => {
    if (!loading) {
      loading = loadOnce()
        .catch((error: unknown) => logger.error({ err: error }, "could not reload the redirects; the previous ones stay"))
        .finally(() => {
          loading = null;
        });
      return loading;
    }
    queued ??= loading.then(() => {
      queued = null;
      return stopped ? undefined : reload();
    });
    return queued;
  };
  const onChange = (change: ContentChange) => {
    if (!stopped && change === "redirects") trackContentWork(reload());
  };
  await loadOnce();
  contentChanges.on("changed", onChange);
  return {
    runOnce: async () => {
      await reload();
      return map.size;
    },
    stop: async () => {
      stopped = true;
      contentChanges.off("changed", onChange);
      await loading;
    },
  };
}
