/**
 * The browser tests run the product as it is deployed (decision 058): nginx terminating TLS for a
 * public host name, two app processes on one PostgreSQL database behind it. news.example.test is
 * in the reserved .test domain; Chromium maps it to this machine by a resolver rule and Node reads
 * it from /etc/hosts (tests/support/proxy/host-name.ts).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_HOST = "news.example.test";
/** SITE_URL of the browser tests' build and servers: the proxy's https address, header style "Host kept". */
export const E2E_BASE_URL = `https://${E2E_HOST}:${E2E_PORT}`;
/** Another host on the same proxy: anything but the main domain gets the opt-in page. */
export const E2E_OTHER_HOST_URL = `https://127.0.0.1:${E2E_PORT}`;

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

/** The proxy's plain-http port: it only redirects to https. */
export const E2E_HTTP_PORT = E2E_PORT + 4;
/**
 * The same proxy in the two other header styles a deployment may use: the app called by an
 * internal name with X-Forwarded-Host/-Proto, and the standard Forwarded header (RFC 7239).
 */
export const E2E_INTERNAL_HOST_URL = `https://${E2E_HOST}:${E2E_PORT + 5}`;
export const E2E_FORWARDED_URL = `https://${E2E_HOST}:${E2E_PORT + 6}`;
/** The two app processes behind the proxy. */
export const E2E_APP_PORTS = [E2E_PORT + 7, E2E_PORT + 8];

/** An admin created before the browser-test server starts (npm run admin:create). */
export const E2E_ADMIN = { email: "admin@patriotinvestor.example", password: "Liberty-Bell-1776!" };

/**
 * Minutes to add to now so that it is 17:00 UTC (noon in New York, 09:00 in Los Angeles): every
 * contiguous-US number is inside its quiet-hours window, whatever hour the tests run at.
 */
export function minutesToSendingHours(now = new Date()) {
  return 17 * 60 - (now.getUTCHours() * 60 + now.getUTCMinutes());
}
