import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { E2E_BASE_URL } from "../../support/e2e-env";

/** The address the production build was made for (npm test builds for the browser tests). */
export const BUILD_SITE_URL = process.env.SYSTEM_SITE_URL ?? E2E_BASE_URL;
export const TEST_AUTH_SECRET = "system-test-secret-0123456789-abcdefghijklmnop";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type SiteProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or signal) once the process has gone. */
  exited: Promise<number | NodeJS.Signals>;
  /** SIGTERM and wait for the exit. */
  stop: () => Promise<number | NodeJS.Signals>;
  /** SIGKILL: no shutdown code runs at all. */
  kill9: () => Promise<number | NodeJS.Signals>;
};

/**
 * The consent chain's witness file of a site on PostgreSQL (decision 081): shared by the processes
 * of one database, as processes on one machine share DATA_DIR, and new with each test's database,
 * so no other test's heads are in it. With DATA_DIR the default under it is already the site's own.
 */
function witnessOf(env: Record<string, string>): Record<string, string> {
  if (env.CONSENT_WITNESS_FILE || !env.DATABASE_URL) return {};
  return { CONSENT_WITNESS_FILE: path.join(tmpdir(), `consent-witness-${createHash("sha256").update(env.DATABASE_URL).digest("hex").slice(0, 16)}.jsonl`) };
}

/**
 * One production server process (`node server.mjs`, the same entry operators run) on its own
 * port, ready when /readyz answers 200. `child` is the process started: without a heap limit in
 * NODE_OPTIONS it runs the server as its own child with the default limit (decision 137), passes
 * signals on, exits with the server's code, and takes the server with it when killed. The
 * environment is the production one; `env` adds the database (DATABASE_URL or DATA_DIR) and
 * providers.
 */
export async function startSite(
  env: Record<string, string>,
  options: { port?: number; readyTimeoutMs?: number; /** Return as soon as the process is spawned. */ waitUntilReady?: boolean } = {},
): Promise<SiteProcess> {
  const port = options.port ?? (await freePort());
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|DATA_DIR|SMTP_URL|TWILIO_|NODE_ENV|VITEST|TEST)/.test(name)),
  );
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: BUILD_SITE_URL,
      MAIN_DOMAINS: "localhost",
      TRUST_PROXY: "1",
      LOG_LEVEL: "warn",
      AUTH_SECRET: TEST_AUTH_SECRET,
      ...witnessOf(env),
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let gone = false;
  void exited.then(() => (gone = true));
  for (; options.waitUntilReady !== false; ) {
    if (gone) throw new Error(`The server exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server was not ready in time:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const signal = (name: NodeJS.Signals) => {
    if (!gone) child.kill(name);
    return exited;
  };
  return { url, port, child, output: () => output, exited, stop: () => signal("SIGTERM"), kill9: () => signal("SIGKILL") };
}
