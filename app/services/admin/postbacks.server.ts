import { desc, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversionPostbacks } from "~/db/schema";
import { POSTBACK_TEXTS } from "~/lib/postback-texts";

export type PostbackState = {
  status: "queued" | "sending" | "sent" | "failed" | "skipped";
  /** Why a skipped postback was withheld (decision 153). */
  skipReason: string | null;
  event: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string;
  sentAt: string | null;
};

/** The latest conversion postback of each listed subscriber, for the admin's subscriber list. */
export async function postbackStates(db: Db, subscriberIds: string[]) {
  const states = new Map<string, PostbackState>();
  if (subscriberIds.length === 0) return states;
  const rows = await db
    .select()
    .from(conversionPostbacks)
    .where(inArray(conversionPostbacks.subscriberId, subscriberIds))
    .orderBy(desc(conversionPostbacks.id));
  for (const row of rows) {
    if (states.has(row.subscriberId)) continue;
    states.set(row.subscriberId, {
      status: row.status,
      skipReason: row.skipReason,
      event: row.event,
      attempts: row.attempts,
      responseStatus: row.responseStatus,
      error: row.error,
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    });
  }
  return states;
}

/** One line for a person: what happened to the conversion call. */
export function describePostback(state: PostbackState | undefined) {
  if (!state) return "none";
  const tries = `${state.attempts} ${state.attempts === 1 ? "try" : "tries"}`;
  switch (state.status) {
    case "sent":
      return `sent (${tries})`;
    case "failed":
      return `failed after ${tries}: ${state.error ?? "unknown error"}`;
    case "sending":
      return `sending (${tries})`;
    case "skipped":
      return POSTBACK_TEXTS.skippedShort[state.skipReason ?? ""] ?? POSTBACK_TEXTS.skippedUnknown;
    case "queued":
      return state.attempts === 0 ? "queued" : `retrying at ${state.nextAttemptAt.slice(11, 19)} UTC (${tries}, last: ${state.error ?? "-"})`;
  }
}
