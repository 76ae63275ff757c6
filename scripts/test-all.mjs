// npm test: everything, in the order that fails fastest: types, lint, unit and service tests,
// then the browser tests and the system tests against the production build.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(`Browser tests need Chromium at ${chromium} (Debian package "chromium"); set CHROMIUM_PATH to use another.`);
  process.exit(1);
}
// The Nu Html Checker (vnu-jar) runs on the machine's Java: its own download is denied (decision 095).
if (spawnSync("java", ["-version"], { stdio: "ignore" }).status !== 0) {
  console.error('The HTML validity tests need Java 11 or newer as "java" on the PATH (Debian package "default-jre-headless").');
  process.exit(1);
}

// The browser tests run against a build made for their public address behind the TLS proxy
// (tests/support/e2e-env.ts), so the build step bakes the same public settings in and the test
// server does not build again.
const e2ePort = process.env.E2E_PORT ?? "4173";
const e2eBuildEnv = { ...process.env, SITE_URL: `https://news.example.test:${e2ePort}` };

const steps = [
  ["typecheck", "npm", ["run", "typecheck"]],
  ["lint", "npm", ["run", "lint"]],
  ["unit and service tests", "npx", ["vitest", "run"]],
  ["production build", "npm", ["run", "build"], e2eBuildEnv],
  ["browser tests", "npx", ["playwright", "test"]],
  // Server processes from the same build, killed, cut off from PostgreSQL and fuzzed.
  ["system tests", "npm", ["run", "test:system"]],
];

for (const [name, command, args, env = process.env] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
}
