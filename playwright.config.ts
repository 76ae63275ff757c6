import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_PATH } from "./tests/support/chromium-path";
import { E2E_BASE_URL, E2E_FORWARDED_URL, E2E_HOST, E2E_INTERNAL_HOST_URL, minutesToSendingHours } from "./tests/support/e2e-env";

if (!existsSync(CHROMIUM_PATH)) {
  // Browser tests never skip silently: without a browser the run fails and says why.
  throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install Debian's chromium-headless-shell package or set CHROMIUM_PATH.`);
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Two workers, whatever the machine: Playwright's own default is half the cores, one on the
  // 2-core machines the suite runs on, and one worker took 660 s where two share the journeys.
  // The limits below are set for two workers sharing the app, the proxy and PostgreSQL.
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // The longest journeys (the staff home, a reader's account) take 20-30 s on a quiet machine and
  // up to twice that while both workers, two app processes, nginx and PostgreSQL share two cores;
  // the few that set their own limit (an alert's whole send, the editorial tools) get twice this.
  timeout: 60_000,
  // Two workers, the app, PGlite and Chromium share two cores: give assertions room under load.
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E_BASE_URL,
    // A failed journey keeps its trace: every action's DOM snapshot, network and console, enough to
    // see what the page held (an axe finding's element, say). Not the screencast: encoding a frame
    // at every paint cost the browser more CPU than the journeys themselves (docs/benchmarks.md).
    trace: { mode: "retain-on-failure", screenshots: false },
    // The certificate is made for this run (tests/support/proxy/start-proxy.ts); no CA knows it.
    ignoreHTTPSErrors: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        // The public host name is this machine, for this browser only (decision 058).
        `--host-resolver-rules=MAP ${E2E_HOST} 127.0.0.1`,
      ],
    },
  },
  projects: [
    // Every journey, through the shipped proxy configuration (Host kept, X-Forwarded-Proto).
    // (but the archive journeys, which run last: see below).
    { name: "deployed", testIgnore: /archive\.spec\.ts/, use: { ...devices["Desktop Chrome"] } },
    // The journeys tagged @header-styles again through the two other ways a proxy may say the
    // public URL: an internal Host with X-Forwarded-Host/-Proto, and the Forwarded header.
    { name: "internal-host", grep: /@header-styles/, use: { ...devices["Desktop Chrome"], baseURL: E2E_INTERNAL_HOST_URL } },
    { name: "forwarded", grep: /@header-styles/, use: { ...devices["Desktop Chrome"], baseURL: E2E_FORWARDED_URL } },
    // The archive journeys publish thirteen articles for a while: run alone, after every other
    // journey, so no page that shows the newest articles (related boxes, the blog grid) sees them.
    { name: "archive", testMatch: /archive\.spec\.ts/, dependencies: ["deployed", "internal-host", "forwarded"], use: { ...devices["Desktop Chrome"] } },
  ],
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    // Ready: both processes rendered their content pages, and the proxy listens.
    url: `${E2E_BASE_URL}/readyz`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    // The script stops the proxy and both processes and drops its database.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      LOG_LEVEL: "warn",
      // Each test sends its own X-Forwarded-For (tests/support/fixtures.ts) as a CDN in front of
      // the proxy would, so per-IP limits apply per test as they would per visitor: two hops
      // (that "CDN" and nginx) are trusted.
      TRUST_PROXY: "2",
      SITE_POSTAL_ADDRESS: "1776 Liberty Way, Philadelphia, PA 19106",
      MAILGUN_WEBHOOK_SIGNING_KEY: "e2e-mailgun-signing-key-0123456789",
      // Market alerts: fast sending, the typed confirmation above 2 recipients, and quiet hours
      // judged at noon Eastern so a campaign sends at any hour of the test run.
      SMS_MPS: "50",
      ALERT_CONFIRM_ABOVE: "2",
      SEND_TEST_QUIET_HOURS_OFFSET_MINUTES: String(minutesToSendingHours()),
      // The dashboard's journeys read counts a moment after the visits (tests/e2e/analytics.spec.ts).
      ANALYTICS_FLUSH_SECONDS: "1",
    },
  },
});
