import type { SignUpFilter, SignUpState } from "~/services/analytics/sign-up-filter";

const CHANNELS: Record<string, string> = {
  search: "search",
  social: "social",
  email: "e-mail",
  sms: "SMS",
  paid: "paid",
  direct: "direct",
  other: "other sites",
  internal: "this site",
  unknown: "unknown",
};

const STATES: Record<SignUpState, string> = {
  confirmed: "confirmed",
  aged7: "at least 7 days old",
  kept7: "still subscribed at 7 days",
  aged30: "at least 30 days old",
  kept30: "still subscribed at 30 days",
  left7: "left within 7 days (unsubscribed or STOP)",
  agedLeft7: "at least 7 days old and left within 7 days",
};

const text = (value: string, none: string, some: (value: string) => string) => (value === "" ? none : some(value));

/** A filter in words, one phrase per key, in the order of its address. */
function describe(filter: SignUpFilter): string[] {
  const words: string[] = [];
  if (filter.channel) words.push(filter.channel === "sms" ? "SMS list" : "e-mail list");
  if (filter.form !== undefined) words.push(text(filter.form, "form page unknown", (value) => `form on ${value}`));
  if (filter.entry !== undefined) words.push(text(filter.entry, "entry page unknown", (value) => `came in on ${value}`));
  if (filter.visit !== undefined) words.push(`came by ${CHANNELS[filter.visit] ?? filter.visit}`);
  if (filter.source !== undefined) words.push(text(filter.source, "no source", (value) => `source ${value}`));
  if (filter.medium !== undefined) words.push(text(filter.medium, "no medium", (value) => `medium ${value}`));
  if (filter.campaign !== undefined) words.push(text(filter.campaign, "no campaign", (value) => `campaign ${value}`));
  if (filter.sub) words.push(text(filter.sub.value, `no ${filter.sub.name}`, (value) => `${filter.sub!.name}=${value}`));
  if (filter.range) words.push(filter.range.from === filter.range.to ? `signed up on ${filter.range.from}` : `signed up ${filter.range.from} to ${filter.range.to}`);
  if (filter.state) words.push(STATES[filter.state]);
  return words;
}

/** The words of the sign-up filters of /admin/subscribers and of the figures that link to it (decision 157). */
export const SIGN_UP_FILTER_TEXTS = {
  describe,
  /** Above a filtered list: what it holds. */
  showing: (filter: SignUpFilter) => `Showing the sign-ups: ${describe(filter).join(", ")}.`,
  heading: (total: number) => `Sign-ups matching (${total})`,
  note: "One line per sign-up from a form of this site, as the analytics figures count them: a person who signed up twice in these days is listed twice. Sign-ups by text message (START) have no attribution and are not in filtered lists.",
  clear: "Clear the filters",
  signedUp: "Signed up",
  exportFiltered: "Export these sign-ups (CSV)",
  refused: "This list cannot be shown",
  /** The accessible name of a figure on /admin/analytics: its number, then the list it opens. */
  figureLink: (count: string, filter: SignUpFilter) => `${count}: open the list of these sign-ups (${describe(filter).join(", ")})`,
  errors: {
    tooLong: (key: string, max: number) => `The filter “${key}” is longer than ${max} characters.`,
    sub: "The sub-id filter must be written sub1=value … sub5=value, e.g. sub=sub1%3DAFF-7.",
    channel: "The list must be sms or email.",
    state: "The state must be one of confirmed, aged7, kept7, aged30, kept30, left7, agedLeft7.",
  },
} as const;
