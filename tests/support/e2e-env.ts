export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
/** "localhost" is the main domain in the tests; 127.0.0.1 stands for any other host. */
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_OTHER_HOST_URL = `http://127.0.0.1:${E2E_PORT}`;

/** The Twilio stand-in the browser-test server sends texts to (tests/support/twilio-stand-in.ts). */
export const E2E_TWILIO_PORT = E2E_PORT + 1;
export const E2E_TWILIO = {
  accountSid: `AC${"e2e0".repeat(8)}`,
  authToken: "e2e-twilio-auth-token-0123456789",
  from: "+18005550100",
  url: `http://127.0.0.1:${E2E_TWILIO_PORT}`,
};

/** The SMTP server the browser-test server mails through, and where tests read the mails. */
export const E2E_SMTP_PORT = E2E_PORT + 2;
export const E2E_MAIL_URL = `http://127.0.0.1:${E2E_PORT + 3}/__mail`;

/** An admin created before the browser-test server starts (npm run admin:create). */
export const E2E_ADMIN = { email: "admin@patriotinvestor.example", password: "Liberty-Bell-1776!" };

/**
 * Minutes to add to now so that it is 17:00 UTC (noon in New York, 09:00 in Los Angeles): every
 * contiguous-US number is inside its quiet-hours window, whatever hour the tests run at.
 */
export function minutesToSendingHours(now = new Date()) {
  return 17 * 60 - (now.getUTCHours() * 60 + now.getUTCMinutes());
}
