import { SIGN_UP_FILTER_TEXTS as T } from "~/lib/sign-up-filter-texts";
import { SUB_PARAMS } from "./landing";
import { parseRange } from "./reports.server";
import { SIGN_UP_STATES, type SignUpFilter, type SignUpState, type SubParam } from "./sign-up-filter";

/** Longer than any path or utm value worth matching: a longer one is a mistake, refused. */
const MAX_VALUE = 500;

/**
 * The sign-up filter of a list's query (decision 157). A text key present matches exactly, even
 * when empty (`source=` is "no source"); `channel=` and `state=` empty mean no filter, as a form's
 * empty choice would. The days are read as on /admin/analytics (parseRange), but with neither
 * `from` nor `to` the list is not limited in time. A bad value is refused with a sentence saying
 * why: a list quietly wider than its link would claim a count it does not hold.
 */
export function parseSignUpFilter(params: URLSearchParams, today: string): { ok: true; filter: SignUpFilter } | { ok: false; error: string } {
  const filter: SignUpFilter = {};
  for (const key of ["form", "entry", "visit", "source", "medium", "campaign", "sub", "channel", "state"] as const) {
    const value = params.get(key);
    if (value !== null && value.length > MAX_VALUE) return { ok: false, error: T.errors.tooLong(key, MAX_VALUE) };
  }
  for (const key of ["form", "entry", "visit", "source", "medium", "campaign"] as const) {
    const value = params.get(key);
    if (value !== null) filter[key] = value;
  }
  const sub = params.get("sub");
  if (sub !== null) {
    const [name = "", ...rest] = sub.split("=");
    if (!(SUB_PARAMS as readonly string[]).includes(name) || rest.length === 0) return { ok: false, error: T.errors.sub };
    filter.sub = { name: name as SubParam, value: rest.join("=") };
  }
  const channel = params.get("channel");
  if (channel) {
    if (channel !== "sms" && channel !== "email") return { ok: false, error: T.errors.channel };
    filter.channel = channel;
  }
  const state = params.get("state");
  if (state) {
    if (!(SIGN_UP_STATES as readonly string[]).includes(state)) return { ok: false, error: T.errors.state };
    filter.state = state as SignUpState;
  }
  if (params.get("from")?.trim() || params.get("to")?.trim()) {
    const range = parseRange(params, today);
    if (!range.ok) return { ok: false, error: range.error };
    filter.range = range.range;
  }
  return { ok: true, filter };
}
