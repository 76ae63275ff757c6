/**
 * The exact consent texts shown next to the submit buttons. A consent event stores the text it
 * was given together with its version, so any change here must bump the version.
 */
export const SMS_MESSAGES_PER_DAY = 3;

export function smsDisclosureText(siteName: string) {
  return (
    `By checking this box, I agree to receive recurring automated marketing text messages (market alerts) ` +
    `from ${siteName} at the phone number provided. Consent is not a condition of any purchase. ` +
    `Up to ${SMS_MESSAGES_PER_DAY} msgs/day. Msg & data rates may apply. Reply HELP for help, STOP to cancel. ` +
    `Your number is never shared with third parties. See our Terms of Service and Privacy Policy.`
  );
}

export const SMS_DISCLOSURE_VERSION = "sms-2025-01-01";

export const TERMS_CONSENT_TEXT = "I agree to the Terms of Service and Privacy Policy.";
export const TERMS_CONSENT_VERSION = "terms-2025-01-01";
