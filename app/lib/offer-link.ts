/** The first-party address of the sponsor's offer: /gold's buttons lead here, it redirects to OFFER_URL (decision 152). */
export const OFFER_PATH = "/go/offer";
