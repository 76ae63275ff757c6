import pg from "pg";
import type { Db } from "~/db/client.server";
import { setSnapshot, type PublishedSnapshot } from "~/content/published";
import type { JobLogger, JobLoop } from "../job-loop.server";
import { nextScheduledAt, publishDueArticles } from "./articles.server";
import { CONTENT_CHANNEL, contentChanges, parseContentNotice, PROCESS_TOKEN, trackContentWork, type ContentChange } from "./changes.server";
import { loadPublishedSnapshot } from "./published.server";

/** The publishing timer never sleeps longer than this, so a missed notification costs at most this much. */
export const MAX_TIMER_MS = 60_000;
const RECONNECT_MAX_MS = 30_000;

export type ContentSync = JobLoop & {
  /** Loads the snapshot again and tells the listeners (the live pages). */
  reload: () => Promise<void>;
  /** Called after every new snapshot (the first load included). */
  onSnapshot: (listener: () => Promise<void> | void) => void;
};

/**
 * Keeps this process's published snapshot current (decision 049):
 * - loads it now; reloads after every change made here (in-process event) or by another process
 *   (PostgreSQL LISTEN on a dedicated connection, reconnected with back-off, with one reload after
 *   each reconnect since a notification may have been missed);
 * - keeps a timer to the next scheduled publication (capped at MAX_TIMER_MS) and flips due
 *   articles then: with no request needed, and once whichever process gets there first.
 */
export async function startContentSync(options: { db: Db; databaseUrl?: string; logger: JobLogger; now?: () => Date; maxTimerMs?: number }): Promise<ContentSync> {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const maxTimerMs = options.maxTimerMs ?? MAX_TIMER_MS;
  const listeners: (() => Promise<void> | void)[] = [];
  let stopped = false;

  // Reloads never overlap; changes during one are folded into one more, which callers wait for.
  let reloading: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  // The last snapshot loaded: the next load reads only the rows that changed since (decision 078).
  let last: PublishedSnapshot | undefined;
  const reloadOnce = async () => {
    const started = performance.now();
    const snapshot = await loadPublishedSnapshot(db, last);
    last = snapshot;
    setSnapshot(snapshot);
    logger.info({ ms: Math.round(performance.now() - started), articles: snapshot.articles.length }, "published articles reloaded");
    for (const listener of listeners) await listener();
  };
  const reload = (): Promise<void> => {
    if (!reloading) {
      reloading = reloadOnce()
        .catch((error: unknown) => logger.error({ err: error }, "could not reload the published articles"))
        .finally(() => {
          reloading = null;
        });
      return reloading;
    }
    queued ??= reloading.then(() => {
      queued = null;
      return stopped ? undefined : reload();
    });
    return queued;
  };

  // The publishing timer.
  let timer: NodeJS.Timeout | null = null;
  let flipping: Promise<unknown> | null = null;
  let failed = false;
  const publishDue = async () => {
    const flipped = await publishDueArticles(db, now());
    if (flipped.length > 0) logger.info({ articles: flipped.map((row) => row.slug) }, "scheduled articles published");
    return flipped.length;
  };
  const arm = async () => {
    if (stopped) return;
    const next = await nextScheduledAt(db).catch(() => null);
    if (timer) clearTimeout(timer);
    // After a failed attempt, wait a little before the next one instead of retrying at once.
    const delay = Math.max(failed ? 5_000 : 0, next ? Math.min(Math.max(0, next.getTime() - now().getTime()), maxTimerMs) : maxTimerMs);
    timer = setTimeout(() => {
      flipping = publishDue()
        .then(() => (failed = false))
        .catch((error: unknown) => {
          failed = true;
          logger.warn({ err: error }, "could not publish scheduled articles; trying again shortly");
        })
        .finally(() => {
          flipping = null;
          void arm();
        });
    }, delay);
    timer.unref();
  };

  const onChange = (change: ContentChange) => {
    // The redirect map follows those itself (app/services/redirects/redirect-map.server.ts).
    if (stopped || change === "redirects") return;
    if (change === "live") trackContentWork(reload());
    void arm();
  };
  contentChanges.on("changed", onChange);

  // Other processes: LISTEN on a connection of its own (PostgreSQL only; PGlite is one process).
  let client: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let attempts = 0;
  const connect = async (isReconnect: boolean) => {
    if (stopped || !options.databaseUrl) return;
    const next = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 5_000 });
    const retry = (error?: unknown) => {
      if (stopped || client !== next) return;
      client = null;
      next.removeAllListeners();
      // A dying connection can report more than one error (the server's goodbye, then the reset
      // socket); one without a listener would end the process.
      next.on("error", () => {});
      void next.end().catch(() => {});
      const delay = Math.min(RECONNECT_MAX_MS, 500 * 2 ** attempts++);
      logger.warn({ err: error, retryInMs: delay }, "lost the content change listener; reconnecting");
      reconnectTimer = setTimeout(() => void connect(true), delay);
      reconnectTimer.unref();
    };
    client = next;
    next.on("error", retry);
    next.on("end", () => retry());
    next.on("notification", (message) => {
      if (message.channel !== CONTENT_CHANNEL) return;
      const notice = parseContentNotice(message.payload);
      // Our own changes were handled at once, in process. Another process's redirects go to
      // this process's listeners as if made here: the redirect map has no connection of its own.
      if (!notice || notice.from === PROCESS_TOKEN) return;
      if (notice.change === "redirects") contentChanges.emit("changed", "redirects");
      else onChange(notice.change);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CONTENT_CHANNEL}`);
      attempts = 0;
      if (isReconnect) {
        logger.info({}, "content change listener connected again");
        onChange("live");
        contentChanges.emit("changed", "redirects");
      }
    } catch (error) {
      retry(error);
    }
  };

  // The first load must succeed: a server must not start without its articles.
  last = await loadPublishedSnapshot(db);
  setSnapshot(last);
  await connect(false);
  await arm();

  return {
    reload,
    onSnapshot: (listener) => listeners.push(listener),
    runOnce: publishDue,
    stop: async () => {
      stopped = true;
      contentChanges.off("changed", onChange);
      if (timer) clearTimeout(timer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
      await flipping;
      await reloading;
    },
  };
}
