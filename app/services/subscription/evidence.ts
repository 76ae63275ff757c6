/** What the request tells us about the person giving consent (stored with every consent event). */
export type RequestEvidence = {
  ip: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
  pageUrl: string | null;
  referrer: string | null;
  /** When the server sent the form's page, from its signed cookie (decision 080); absent or null when unknown. */
  formServedAt?: Date | null;
};
