/** Words about conversion postbacks, on the consent certificate and the admin's subscriber list (decisions 041, 153). */
export const POSTBACK_TEXTS = {
  heading: "Conversion postbacks",
  intro: "The calls that report this sign-up to the ad network or tracker its click id came from.",
  events: { opt_in: "Opt-in", doi_confirmed: "Confirmation by text (Y)" } as Record<string, string>,
  /** Why a postback was withheld, as a sentence for the certificate. */
  skipped: {
    gpc: "The conversion postback was not sent: the person’s browser sent Global Privacy Control (Sec-GPC: 1) with the sign-up, and the postback is marked as feeding an ad platform.",
  } as Record<string, string>,
  /** The same, short, for the admin's list of subscribers. */
  skippedShort: {
    gpc: "not sent: Global Privacy Control (Sec-GPC: 1), the postback feeds an ad platform",
  } as Record<string, string>,
  skippedUnknown: "not sent (withheld)",
  /** One postback's state on the certificate (times in UTC, as the certificate's others). */
  state: (postback: { status: string; skipReason: string | null; sentAt: string | null }) => {
    if (postback.status === "skipped")
      return POSTBACK_TEXTS.skipped[postback.skipReason ?? ""] ?? POSTBACK_TEXTS.skippedUnknown;
    if (postback.status === "sent")
      return `sent ${postback.sentAt ? postback.sentAt.replace("T", " ").replace("Z", " UTC") : "(time not recorded)"}`;
    if (postback.status === "failed") return "not sent: the receiver refused it, or it failed after every retry";
    return "queued, not sent yet";
  },
} as const;
