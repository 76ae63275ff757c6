/**
 * The sponsor's offer address (`OFFER_URL`) as a template (decision 152): the operator may ask for
 * the visit's sub-ids and `utm_*` where the sponsor's tracker wants them, e.g.
 * `https://sponsor.example/guide?aff=77&s1={sub1}&s2={utm_source}`. A URL without placeholders is
 * sent as it is.
 */
export const OFFER_PLACEHOLDERS = ["sub1", "sub2", "sub3", "sub4", "sub5", "utm_source", "utm_medium", "utm_campaign"] as const;
export type OfferPlaceholder = (typeof OFFER_PLACEHOLDERS)[number];
export type OfferValues = Partial<Record<OfferPlaceholder, string>>;

const AUTHORITY_ENDED = /^https?:\/\/[^/?#]*[/?#]/i;
const PLACEHOLDER = new RegExp(`\\{(${OFFER_PLACEHOLDERS.join("|")})\\}`, "g");

/**
 * Where placeholders may not stand: the scheme and host. A value there would choose the site the
 * visitor is sent to, and the redirect must only ever lead to the operator's sponsor. Checked at
 * start (env.server.ts); the redirect checks the origin again (`fillOfferUrl`).
 */
export function offerTemplateProblem(template: string): string | undefined {
  if (!originOf(template.replace(PLACEHOLDER, ""))) return "must be an absolute http(s) URL";
  const first = template.search(PLACEHOLDER);
  // The host has ended (a "/", "?" or "#" after it) before the first placeholder.
  if (first >= 0 && !AUTHORITY_ENDED.test(template.slice(0, first))) return "may hold {sub1}…{sub5}, {utm_source}, {utm_medium}, {utm_campaign} only after the host, in the path or the query";
  return undefined;
}

function originOf(url: string) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The template with each placeholder replaced by its value, URL-encoded (an absent value is
 * empty). The answer always has the template's own origin: should a filled address name another
 * (a template the start check did not see), the placeholders are emptied instead.
 */
export function fillOfferUrl(template: string, values: OfferValues): string {
  if (!template.includes("{")) return template;
  const filled = template.replace(PLACEHOLDER, (_, name: OfferPlaceholder) => encodeURIComponent(values[name] ?? ""));
  const emptied = template.replace(PLACEHOLDER, "");
  return originOf(filled) === originOf(emptied) ? filled : emptied;
}
