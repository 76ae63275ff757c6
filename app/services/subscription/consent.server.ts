import { createHash } from "node:crypto";
import { smsDisclosureText, SMS_DISCLOSURE_VERSION, TERMS_CONSENT_TEXT, TERMS_CONSENT_VERSION } from "~/lib/consent-texts";

export function sha256(text: string) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The exact texts a person agreed to, as stored with each consent event. */
export function consentTexts(siteName: string) {
  const consentText = smsDisclosureText(siteName);
  return {
    consentText,
    consentVersion: SMS_DISCLOSURE_VERSION,
    consentTextSha256: sha256(consentText),
    termsText: TERMS_CONSENT_TEXT,
    termsVersion: TERMS_CONSENT_VERSION,
  };
}
