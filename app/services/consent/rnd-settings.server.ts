import type { Env } from "~/http/env.server";
import type { RndPolicy } from "./rnd-check";

/** The campaign rule of the Reassigned Numbers Database from the settings (decision 071). */
export function rndPolicyFromEnv(
  env: Pick<Env, "RND_CHECK_AFTER_DAYS" | "RND_ANSWER_MAX_AGE_DAYS" | "RND_NO_DATA">,
): RndPolicy {
  return {
    checkAfterDays: env.RND_CHECK_AFTER_DAYS,
    answerMaxAgeDays: env.RND_ANSWER_MAX_AGE_DAYS,
    noData: env.RND_NO_DATA,
  };
}
