// The server the browser tests run against: the production build on a fresh embedded database in a
// temporary folder, texts going to a local Twilio stand-in, and the Do-Not-Call test number
// imported before the server starts (PGlite allows one process per folder).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { E2E_ADMIN, E2E_PORT, E2E_SMTP_PORT, E2E_TWILIO, E2E_TWILIO_PORT } from "../tests/support/e2e-env";
import { startSmtpCapture } from "../tests/support/smtp-capture";
import { startTwilioStandIn } from "../tests/support/twilio-stand-in";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "e2e-data-"));
const imported = spawnSync(
  process.execPath,
  ["--import", "tsx", "scripts/dnc-import.ts", "tests/fixtures/dnc-e2e.txt", "--date", new Date().toISOString().slice(0, 10)],
  { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "development" } },
);
if (imported.status !== 0) process.exit(imported.status ?? 1);
const admin = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", E2E_ADMIN.email, E2E_ADMIN.password], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, NODE_ENV: "development" },
});
if (admin.status !== 0) process.exit(admin.status ?? 1);

await startSmtpCapture({ smtpPort: E2E_SMTP_PORT, httpPort: E2E_PORT + 3 });
process.env.SMTP_URL = `smtp://127.0.0.1:${E2E_SMTP_PORT}`;

await startTwilioStandIn({ accountSid: E2E_TWILIO.accountSid, authToken: E2E_TWILIO.authToken, port: E2E_TWILIO_PORT });
Object.assign(process.env, {
  TWILIO_ACCOUNT_SID: E2E_TWILIO.accountSid,
  TWILIO_AUTH_TOKEN: E2E_TWILIO.authToken,
  TWILIO_FROM: E2E_TWILIO.from,
  TWILIO_API_BASE: E2E_TWILIO.url,
});
// @ts-expect-error plain ESM script without types
await import("./start.mjs");
