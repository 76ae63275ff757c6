import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { BUILD_SITE_URL, freePort, startSite, TEST_AUTH_SECRET, type SiteProcess } from "./support/site";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The heap limit server.mjs gives when none is set (decision 137). */
const DEFAULT_HEAP_MB = Number(/const DEFAULT_HEAP_MB = (\d+);/.exec(readFileSync(path.join(ROOT, "server.mjs"), "utf8"))?.[1]);

/** V8's heap limit, in MB as the server logs it, of a Node.js process started with these flags. */
const heapLimitWith = (...flags: string[]) =>
  Number(execFileSync(process.execPath, [...flags, "-p", "Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20)"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } }));

type Listening = { pid: number; heapLimitMb: number; pageCacheMb: number };
const listening = (output: string) => JSON.parse(output.split("\n").find((line) => line.includes('"msg":"listening on'))!) as Listening;

/** Gone, or a zombie nobody has collected yet (it holds nothing any more). */
function running(pid: number) {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(status, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Issue 32 item 4: with no settings the server's memory is bounded. V8's own heap limit is a share
 * of the machine's memory (4 GB on 24 GB); server.mjs gives its server DEFAULT_HEAP_MB unless the
 * operator sets a limit, however the server is started.
 */
describe("memory bounded by default", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const sites: SiteProcess[] = [];
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await database?.drop();
  });
  const start = async (env: Record<string, string>) => {
    const site = await startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info", ...env });
    sites.push(site);
    return site;
  };

  it("node server.mjs with no NODE_OPTIONS runs the server with the default heap limit, far under V8's own", async () => {
    expect(DEFAULT_HEAP_MB).toBeGreaterThan(0);
    expect(heapLimitWith()).toBeGreaterThan(2 * heapLimitWith(`--max-old-space-size=${DEFAULT_HEAP_MB}`));
    const site = await start({ NODE_OPTIONS: "" });
    const { pid, heapLimitMb } = listening(site.output());
    expect(heapLimitMb).toBe(heapLimitWith(`--max-old-space-size=${DEFAULT_HEAP_MB}`));
    // The limit is given to a child: the process started waits for it.
    expect(pid).not.toBe(site.child.pid);
    expect((await fetch(`${site.url}/articles/bonds-guide`)).status).toBe(200);
    // Every line the two processes wrote is JSON.
    for (const line of site.output().split("\n").filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it("a limit the operator sets in NODE_OPTIONS wins, in the one process started", async () => {
    const site = await start({ NODE_OPTIONS: "--max-old-space-size=512" });
    const { pid, heapLimitMb } = listening(site.output());
    expect(heapLimitMb).toBe(heapLimitWith("--max-old-space-size=512"));
    expect(pid).toBe(site.child.pid);
  });

  it("the server goes with the process started when that one is killed outright (kill -9)", async () => {
    const site = await start({ NODE_OPTIONS: "" });
    const { pid } = listening(site.output());
    expect(running(pid)).toBe(true);
    await site.kill9();
    await expect.poll(() => running(pid), { timeout: 5_000 }).toBe(false);
    await expect(fetch(`${site.url}/healthz`)).rejects.toThrow();
  });

  it("npm start gives the server the same heap limit", async () => {
    const port = await freePort();
    const child = spawn("npm", ["start"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "", NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), SITE_URL: BUILD_SITE_URL, MAIN_DOMAINS: "localhost", DATABASE_URL: database.url, LOG_LEVEL: "info", AUTH_SECRET: TEST_AUTH_SECRET },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await expect.poll(() => /"msg":"listening on|Building first/.test(output) || child.exitCode !== null, { timeout: 60_000 }).toBe(true);
      // A stale build would be built again first: the test then says so instead of waiting minutes.
      expect(output, output).not.toContain("Building first");
      expect(listening(output).heapLimitMb).toBe(heapLimitWith(`--max-old-space-size=${DEFAULT_HEAP_MB}`));
    } finally {
      if (output.includes('"msg":"listening on')) process.kill(listening(output).pid, "SIGTERM");
      else child.kill("SIGKILL");
      await exited;
    }
    expect(child.exitCode).toBe(0);
  });
});
