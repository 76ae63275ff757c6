// The site the browser tests run against, in the shape it is deployed in (decision 058): the
// production build in two processes on one fresh PostgreSQL database, behind nginx terminating TLS
// for a public host name (the shipped deploy/nginx configuration), texts going to a local Twilio
// stand-in and mail to a local SMTP server. The Do-Not-Call test number and the first admin are
// made before the processes start.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import {
  E2E_ADMIN,
  E2E_APP_PORTS,
  E2E_BASE_URL,
  E2E_HOST,
  E2E_HTTP_PORT,
  E2E_PORT,
  E2E_SMTP_PORT,
  E2E_TWILIO,
  E2E_TWILIO_PORT,
} from "../tests/support/e2e-env";
import { ensureHostResolves } from "../tests/support/proxy/host-name";
import { startProxy } from "../tests/support/proxy/start-proxy";
import { startSmtpCapture } from "../tests/support/smtp-capture";
import { startTwilioStandIn } from "../tests/support/twilio-stand-in";
import { staleReason } from "./build-info.mjs";

const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dir = mkdtempSync(path.join(tmpdir(), "e2e-deployed-"));
// nginx's workers (an unprivileged user when started as root) keep request bodies under it.
chmodSync(dir, 0o755);

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { stdio: ["ignore", "ignore", "inherit"], env });
  if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status})`);
}

await ensureHostResolves(E2E_HOST);
// The build bakes SITE_URL into its pages: it must be the one the processes run with.
process.env.SITE_URL = E2E_BASE_URL;
if (staleReason()) {
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: ["ignore", "ignore", "inherit"], env: process.env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const databaseName = `e2e_${randomBytes(6).toString("hex")}`;
await adminQuery(`CREATE DATABASE ${databaseName}`);
const databaseUrl = Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${databaseName}` }).toString();

await startSmtpCapture({ smtpPort: E2E_SMTP_PORT, httpPort: E2E_PORT + 3 });
await startTwilioStandIn({ accountSid: E2E_TWILIO.accountSid, authToken: E2E_TWILIO.authToken, port: E2E_TWILIO_PORT });

const appEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  DATABASE_URL: databaseUrl,
  // Both processes share this run's witness of the consent chain, as processes on one machine share DATA_DIR;
  // a run's database is new, so its witness must be too (decision 081).
  CONSENT_WITNESS_FILE: path.join(dir, "consent-witness.jsonl"),
  AUTH_SECRET: "e2e-auth-secret-shared-by-both-processes-0123456789",
  SITE_URL: E2E_BASE_URL,
  MAIN_DOMAINS: E2E_HOST,
  SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
  TWILIO_ACCOUNT_SID: E2E_TWILIO.accountSid,
  TWILIO_AUTH_TOKEN: E2E_TWILIO.authToken,
  TWILIO_FROM: E2E_TWILIO.from,
  TWILIO_API_BASE: E2E_TWILIO.url,
};

const children: ChildProcess[] = [];
let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  await proxy?.stop();
  await Promise.all(
    children.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGTERM"))))),
  );
  await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
  process.exit(code);
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop(0));

try {
  // Migrates the new database (under the advisory lock) before either process starts.
  run("scripts/dnc-import.ts", ["tests/fixtures/dnc-e2e.txt", "--date", new Date().toISOString().slice(0, 10)], appEnv);
  run("scripts/admin-create.ts", [E2E_ADMIN.email, E2E_ADMIN.password], appEnv);

  for (const [index, port] of E2E_APP_PORTS.entries()) {
    const child = spawn(process.execPath, ["server.mjs"], { stdio: ["ignore", "pipe", "inherit"], env: { ...appEnv, HOST: "127.0.0.1", PORT: String(port) } });
    children.push(child);
    // Every line is kept; errors are shown with the test run's output.
    const log = createWriteStream(path.join(dir, `app-${index + 1}.log`));
    child.stdout!.pipe(log);
    let partial = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (/"level":(50|60)/.test(line)) process.stderr.write(`[app ${index + 1}] ${line}\n`);
    });
    child.once("exit", (code, signal) => {
      if (!stopping) {
        process.stderr.write(`app process ${index + 1} exited (${code ?? signal})\n`);
        void stop(1);
      }
    });
  }
  for (const port of E2E_APP_PORTS) await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
  proxy = await startProxy({
    dir: path.join(dir, "nginx"),
    host: E2E_HOST,
    ports: { https: E2E_PORT, http: E2E_HTTP_PORT, internalHost: E2E_PORT + 5, forwarded: E2E_PORT + 6 },
    appPorts: E2E_APP_PORTS,
  });
  process.stderr.write(`deployed-shape site ready at ${E2E_BASE_URL} (logs in ${dir})\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  await stop(1);
}

async function waitUntilReady(url: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready in time`);
}
