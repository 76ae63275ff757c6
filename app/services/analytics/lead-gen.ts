import type { SUB_PARAMS } from "./landing";

/** The ad landing page whose visits and opt-ins make the lead-gen report (decision 154). */
export const LEAD_PAGE_PATH = "/opt-in";

/**
 * The sub-id the lead-gen report and its costs are split by. `sub1` names the affiliate's
 * placement or publisher; `sub2` carries a per-click id on this site's ads (issue 34), which
 * would give one row per click. The rollup keeps all five, so another choice applies to the past.
 */
export const LEAD_SUB_ID: (typeof SUB_PARAMS)[number] = "sub1";
