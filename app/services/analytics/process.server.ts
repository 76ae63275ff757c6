import { getDb } from "~/db/database.server";
import { getEnv, type Env } from "~/http/env.server";
import { createRecorder, type Recorder } from "./recorder";
import { createVisitLookup, type VisitLookup } from "./visit-lookup.server";

let recorder: Recorder | null | undefined;
let visits: VisitLookup | null | undefined;

/**
 * This process's recorder: the server counts into it and the runtime's flusher writes it out.
 * Undefined with ANALYTICS=off.
 */
export function processRecorder(env: Env = getEnv()): Recorder | undefined {
  if (recorder === undefined) {
    recorder =
      env.ANALYTICS === "off"
        ? null
        : createRecorder({ timeZone: env.ANALYTICS_TIME_ZONE, viewsPerMinute: env.ANALYTICS_VIEWS_PER_MINUTE, ownHosts: env.MAIN_DOMAINS });
  }
  return recorder ?? undefined;
}

/** Where this process's subscriptions find the visit they came from (decision 149); undefined with ANALYTICS=off. */
export function processVisitLookup(env: Env = getEnv()): VisitLookup | undefined {
  if (visits === undefined) {
    const counting = processRecorder(env);
    visits = counting ? createVisitLookup({ recorder: counting, db: getDb, site: env.SITE_URL }) : null;
  }
  return visits ?? undefined;
}
