import type { SUB_PARAMS } from "./landing";

/**
 * What became of a sign-up, one state per quality figure of the sign-up reports (decision 150):
 * the subscriber list filtered by a state lists exactly the sign-ups that figure counts, because
 * the report and the list read the same SQL predicate (SIGN_UP_STATE_SQL, sign-up-reports.server.ts).
 */
export const SIGN_UP_STATES = ["confirmed", "aged7", "kept7", "aged30", "kept30", "left7", "agedLeft7"] as const;
export type SignUpState = (typeof SIGN_UP_STATES)[number];

export type SubParam = (typeof SUB_PARAMS)[number];

/**
 * A set of sign-ups as a figure of /admin/analytics counts them, and as /admin/subscribers lists
 * them (decision 157). Every key present must match exactly, the empty text included ("no
 * source"); a key absent matches anything. `range`: local days of the sign-up, inclusive.
 */
export type SignUpFilter = {
  /** The path of the page that held the form. */
  form?: string;
  /** The path the visit came in on (decision 150's entry page). */
  entry?: string;
  /** The visit's channel (search, paid, direct, unknown…). */
  visit?: string;
  source?: string;
  medium?: string;
  campaign?: string;
  sub?: { name: SubParam; value: string };
  channel?: "sms" | "email";
  range?: { from: string; to: string };
  state?: SignUpState;
};

/** The filter as query parameters of /admin/subscribers (and of its CSV file), always in one order, so one filter has one address. */
export function signUpFilterParams(filter: SignUpFilter): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ["form", "entry", "visit", "source", "medium", "campaign"] as const) if (filter[key] !== undefined) params[key] = filter[key];
  if (filter.sub) params.sub = `${filter.sub.name}=${filter.sub.value}`;
  if (filter.channel) params.channel = filter.channel;
  if (filter.range) {
    params.from = filter.range.from;
    params.to = filter.range.to;
  }
  if (filter.state) params.state = filter.state;
  return params;
}

/** The address of the subscriber list that shows a filter's sign-ups. */
export function signUpListHref(filter: SignUpFilter) {
  return `/admin/subscribers?${new URLSearchParams(signUpFilterParams(filter))}`;
}

/** Whether a filter selects anything at all: an empty one is the whole subscriber list. */
export function isFiltered(filter: SignUpFilter) {
  return Object.keys(signUpFilterParams(filter)).length > 0;
}
