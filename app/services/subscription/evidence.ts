/** What the request tells us about the person giving consent (stored with every consent event). */
export type RequestEvidence = {
  ip: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
  pageUrl: string | null;
  referrer: string | null;
};
