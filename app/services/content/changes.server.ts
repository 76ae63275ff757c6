import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** The PostgreSQL channel every process LISTENs on (decision 049). */
export const CONTENT_CHANNEL = "content_changed";

/**
 * What changed: "live" alters what readers see (reload and re-render); "schedule" only moves a
 * scheduled article's time (re-arm the publishing timer).
 */
export type ContentChange = "live" | "schedule";

export type ContentNotice = { from: string; change: ContentChange };

type Holder = { token: string; emitter: EventEmitter };
// One per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __contentChanges?: Holder }).__contentChanges ??= { token: randomUUID(), emitter: new EventEmitter() });

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
    if (typeof value.from === "string" && (value.change === "live" || value.change === "schedule")) return { from: value.from, change: value.change };
  } catch {
    // A notification we did not write: treat it as a change of what readers see.
  }
  return { from: "", change: "live" };
}
