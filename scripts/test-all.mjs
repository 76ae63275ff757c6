// npm test: everything, in the order that fails fastest: types and lint, unit and service tests,
// then the browser tests and the system tests against the production build.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// The same default as tests/support/chromium-path.ts, checked here so that the run fails first.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
if (!existsSync(chromium)) {
  console.error(`Browser tests need Chromium at ${chromium} (Debian package "chromium-headless-shell"); set CHROMIUM_PATH to use another.`);
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

/** One command; its output streams through, or is kept and printed whole when it runs beside another. */
function run([name, command, args, env = process.env], { buffered = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit", env });
    const chunks = [];
    if (buffered) {
      child.stdout.on("data", (chunk) => chunks.push(chunk));
      child.stderr.on("data", (chunk) => chunks.push(chunk));
    }
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (buffered) console.log(`\n=== ${name} ===\n${Buffer.concat(chunks).toString()}`);
      if (code === 0) console.log(`=== ${name}: ok in ${seconds} s ===`);
      else console.error(`\n${name} failed (exit ${code ?? signal}).`);
      resolve(code === 0 ? 0 : (code ?? 1));
    });
  });
}

// Each stage is a list of steps that run at the same time; the first one's output streams, the
// others' is printed when they end. The type check and the linter each keep one core busy, so side
// by side they take the time of the longer one. The unit and service tests mostly wait on
// PostgreSQL and timers, which leaves room for the build (no unit test reads the build).
const stages = [
  [
    ["typecheck", "npm", ["run", "typecheck"]],
    ["lint", "npm", ["run", "lint"]],
  ],
  [
    ["unit and service tests", "npx", ["vitest", "run"]],
    ["production build", "npm", ["run", "build"], e2eBuildEnv],
  ],
  [["browser tests", "npx", ["playwright", "test"]]],
  // Server processes from the same build, killed, cut off from PostgreSQL and fuzzed.
  [["system tests", "npm", ["run", "test:system"]]],
];

const suiteStarted = Date.now();
for (const steps of stages) {
  const codes = await Promise.all(steps.map((step, index) => run(step, { buffered: index > 0 })));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}
console.log(`\n=== the whole suite: ok in ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s ===`);
