/** The addresses in newsletter e-mails; isomorphic so pages and mails build them alike. */
export function confirmationUrl(siteUrl: string, token: string) {
  return `${siteUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

export function preferencesUrl(siteUrl: string, token: string) {
  return `${siteUrl}/newsletter/preferences?token=${encodeURIComponent(token)}`;
}

/** The RFC 8058 one-click address (List-Unsubscribe with List-Unsubscribe-Post). */
export function oneClickUnsubscribeUrl(siteUrl: string, token: string) {
  return `${siteUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}
