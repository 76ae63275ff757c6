/**
 * How the people of an imported list gave consent, in the operator's words (issue 35, item 8): one
 * of the ways a list is built, and where and when. Kept as the consent text of each person's
 * import event, so their certificate says on whose word they are on the list and what it was.
 */

export const CONSENT_METHODS = [
  { id: "double-opt-in", label: "They signed up on the old site’s form and confirmed by e-mail (double opt-in)" },
  { id: "single-opt-in", label: "They signed up on the old site’s form (single opt-in)" },
  { id: "members", label: "They are members of the old site who chose to receive its e-mails" },
  { id: "customers", label: "They are customers who ticked a box to receive the newsletter" },
] as const;

export type ConsentAttestation = { method: string; detail: string };

/** The attestation as it is kept, or null when no known way was chosen. */
export function attestationText(attestation: ConsentAttestation, actor: string): string | null {
  const method = CONSENT_METHODS.find((candidate) => candidate.id === attestation.method);
  if (!method) return null;
  const detail = attestation.detail.trim().replace(/\s+/g, " ").slice(0, 500);
  return `${actor} attested at import: ${method.label}.${detail ? ` ${detail}` : ""}`;
}
