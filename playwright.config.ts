import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL, E2E_PORT, minutesToSendingHours } from "./tests/support/e2e-env";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  // Browser tests never skip silently: without a browser the run fails and says why.
  throw new Error(`No Chromium at ${chromiumPath}. Install Debian's chromium package or set CHROMIUM_PATH.`);
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  // Two workers, the app, PGlite and Chromium share two cores: give assertions room under load.
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    // Ready: listening, and the content pages rendered (before that the router answers them).
    url: `${E2E_BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      SITE_URL: E2E_BASE_URL,
      MAIN_DOMAINS: "localhost",
      LOG_LEVEL: "warn",
      // Each test sends its own X-Forwarded-For (tests/support/fixtures.ts), so per-IP limits
      // apply per test as they would per visitor.
      TRUST_PROXY: "1",
      SITE_POSTAL_ADDRESS: "1776 Liberty Way, Philadelphia, PA 19106",
      MAILGUN_WEBHOOK_SIGNING_KEY: "e2e-mailgun-signing-key-0123456789",
      // Market alerts: fast sending, the typed confirmation above 2 recipients, and quiet hours
      // judged at noon Eastern so a campaign sends at any hour of the test run.
      SMS_MPS: "50",
      ALERT_CONFIRM_ABOVE: "2",
      SEND_TEST_QUIET_HOURS_OFFSET_MINUTES: String(minutesToSendingHours()),
    },
  },
});
