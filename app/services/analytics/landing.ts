/**
 * What a page's address says about where the visit came from: `utm_source`, `utm_medium`,
 * `utm_campaign`, which ad click ids are present (never their values: a click id names one
 * click, so it would make the rollups grow with views), and the affiliate sub-ids `sub1`…`sub5`.
 */
export const CLICK_ID_PARAMS = ["gclid", "gbraid", "wbraid", "fbclid", "msclkid", "ttclid"] as const;
export type ClickIdParam = (typeof CLICK_ID_PARAMS)[number];

export const SUB_PARAMS = ["sub1", "sub2", "sub3", "sub4", "sub5"] as const;

/** Longest value kept of a parameter; longer ones are cut (they are labels, not data). */
export const LANDING_VALUE_MAX = 100;

export type Landing = {
  source: string;
  medium: string;
  campaign: string;
  /** The click-id parameters present, in CLICK_ID_PARAMS order. */
  clickIds: ClickIdParam[];
  /** sub1…sub5, "" where absent. */
  subs: [string, string, string, string, string];
};

export const NO_LANDING: Readonly<Landing> = Object.freeze({ source: "", medium: "", campaign: "", clickIds: [], subs: ["", "", "", "", ""] as Landing["subs"] });

// Control characters (the rollup keys use \u0001 as a separator) and surrounding space go.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function cleanValue(value: string | null, lowerCase = false) {
  if (!value) return "";
  const clean = value.replace(CONTROL, "").trim().slice(0, LANDING_VALUE_MAX);
  return lowerCase ? clean.toLowerCase() : clean;
}

/**
 * Reads the landing parameters of a query string (without its "?"). Source and medium are
 * lower-cased (they name categories: "Facebook" and "facebook" are one source); campaign and
 * sub-ids keep their case (an affiliate's ids are case-sensitive).
 */
export function readLanding(query: string): Landing {
  if (!query) return NO_LANDING;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return NO_LANDING;
  }
  const clickIds = CLICK_ID_PARAMS.filter((name) => Boolean(params.get(name)?.trim()));
  return {
    source: cleanValue(params.get("utm_source"), true),
    medium: cleanValue(params.get("utm_medium"), true),
    campaign: cleanValue(params.get("utm_campaign")),
    clickIds,
    subs: SUB_PARAMS.map((name) => cleanValue(params.get(name))) as Landing["subs"],
  };
}
