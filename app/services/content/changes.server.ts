import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** The PostgreSQL channel every process LISTENs on (decision 049). */
export const CONTENT_CHANNEL = "content_changed";

/**
 * What changed: "live" alters what readers see (reload and re-render); "schedule" only moves a
 * scheduled article's time (re-arm the publishing timer); "redirects" changes the old addresses
 * that answer 301 (reload the redirect map only, decision 160).
 */
export type ContentChange = "live" | "schedule" | "redirects";

export type ContentNotice = { from: string; change: ContentChange };

type Holder = { token: string; emitter: EventEmitter; pending: Set<Promise<unknown>> };
// One per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __contentChanges?: Holder }).__contentChanges ??= { token: randomUUID(), emitter: new EventEmitter(), pending: new Set() });

/** This process's id in notifications, so it does not redo what it did already. */
export const PROCESS_TOKEN = holder.token;

/** In-process: emits "changed" with a ContentChange after a change committed here. */
export const contentChanges = holder.emitter;

type Executor = Pick<Db, "execute">;

/** Inside the transaction: PostgreSQL delivers the notification to every listener on commit. */
export async function notifyContentChanged(tx: Executor, change: ContentChange) {
  const payload: ContentNotice = { from: PROCESS_TOKEN, change };
  await tx.execute(sql`SELECT pg_notify(${CONTENT_CHANNEL}, ${JSON.stringify(payload)})`);
}

/** After the commit: this process reacts at once, without waiting for its own notification. */
export function announceContentChanged(change: ContentChange) {
  contentChanges.emit("changed", change);
}

export function parseContentNotice(payload: string | undefined): ContentNotice | null {
  try {
    const value = JSON.parse(payload ?? "") as Partial<ContentNotice>;
    if (typeof value.from === "string" && (value.change === "live" || value.change === "schedule" || value.change === "redirects")) return { from: value.from, change: value.change };
  } catch {
    // A notification we did not write: treat it as a change of what readers see.
  }
  return { from: "", change: "live" };
}

/** Work that brings this process up to date after a change (reload, re-render). */
export function trackContentWork(work: Promise<unknown>) {
  holder.pending.add(work);
  void work.finally(() => holder.pending.delete(work)).catch(() => {});
}

/**
 * Resolves once this process serves the change just made (or after `timeoutMs`): an editor's
 * redirect then shows readers' pages as they are now on this process.
 */
export async function contentSettled(timeoutMs = 3_000) {
  if (holder.pending.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...holder.pending]), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
