import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { freePort, startSite, TEST_AUTH_SECRET, type SiteProcess } from "./support/site";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every non-empty line parsed as JSON; a line that is not JSON fails the test with the line. */
function jsonLines(output: string) {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

describe("server logs", () => {
  it("a bad setting stops the start with exit code 1 and the list of problems, without a stack trace", () => {
    const result = spawnSync(process.execPath, ["server.mjs"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 30_000,
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: "not-a-port", SITE_URL: "ftp://example.com", SITE_EMAIL: "nobody" },
    });
    expect(result.status).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).not.toMatch(/^\s+at /m);
    const lines = jsonLines(output);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 60 });
    const problems = lines[0]!.problems as string[];
    expect(problems.map((problem) => problem.split(":")[0]).sort()).toEqual(["PORT", "SITE_EMAIL", "SITE_URL"]);
  });

  it("without SITE_URL, the one-time setup link and every printed address name the port the server listens on", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "setup-link-"));
    // SITE_URL empty is SITE_URL unset; on every interface the address is localhost.
    const site = await startSite({ DATA_DIR: dataDir, SITE_URL: "", HOST: "0.0.0.0", LOG_LEVEL: "info" });
    try {
      const lines = jsonLines(site.output());
      const setupUrl = String(lines.find((line) => typeof line.setupUrl === "string")?.setupUrl);
      expect(setupUrl).toMatch(new RegExp(`^http://localhost:${site.port}/setup\\?token=[\\w-]{40,}$`));
      expect(lines.find((line) => String(line.msg).startsWith("listening on"))?.msg).toBe(`listening on http://localhost:${site.port}`);
      // Every address in the log is this server's (the build's own, named in the warning below, aside).
      const addresses = site.output().match(/https?:\/\/[\w.-]+(?::\d+)?/g) ?? [];
      const built = lines.find((line) => typeof line.bakedSiteUrl === "string")?.bakedSiteUrl;
      expect(addresses.filter((address) => address !== built && address !== `http://localhost:${site.port}`)).toEqual([]);
      // The build was made for another address (npm test builds for the browser tests' proxy):
      // `node server.mjs` says so instead of serving prerendered pages that point elsewhere quietly.
      expect(built).toMatch(/^https?:\/\//);
      expect(built).not.toBe(`http://localhost:${site.port}`);
      // A newcomer who follows the link reaches the form.
      const page = await fetch(setupUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<form");
    } finally {
      await site.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe("a start that cannot succeed: one fatal JSON line that says what to do, exit code 1", () => {
    /** `node server.mjs` (from `cwd`) to its end: exit code and the lines it wrote, each JSON. */
    const run = (env: Record<string, string>, cwd = ROOT) =>
      new Promise<{ code: number | null; output: string; lines: Record<string, unknown>[] }>((resolve) => {
        const child = spawn(process.execPath, ["server.mjs"], {
          cwd,
          stdio: ["ignore", "pipe", "pipe"],
          env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "info", AUTH_SECRET: TEST_AUTH_SECRET, ...env },
        });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
        child.once("close", (code) => {
          clearTimeout(timer);
          resolve({ code, output, lines: jsonLines(output) });
        });
      });

    /** Exactly one fatal line, the last, with no stack trace anywhere. */
    const fatalOf = ({ code, output, lines }: Awaited<ReturnType<typeof run>>) => {
      expect(code, output).toBe(1);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain("\\n    at ");
      expect(lines.filter((line) => line.level === 60)).toHaveLength(1);
      expect(lines.at(-1)!.level).toBe(60);
      return lines.at(-1)!;
    };

    it("a port in use: says so and what to set, and leaves the embedded database unlocked", async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "port-in-use-"));
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as { port: number }).port;
      try {
        const fatal = fatalOf(await run({ PORT: String(port), DATA_DIR: dataDir }));
        expect(fatal).toMatchObject({ port, host: "127.0.0.1", code: "EADDRINUSE" });
        expect(fatal.msg).toBe(`port ${port} on 127.0.0.1 is already in use by another process (a second server?): stop that process, or set PORT to a free port`);
        // The database was opened and closed again: the next start on this folder is not refused.
        expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
      } finally {
        taken.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it("a database that refuses the connection: names it without the password and says what to do", async () => {
      const port = await freePort();
      const fatal = fatalOf(await run({ PORT: String(await freePort()), DATABASE_URL: `postgres://site:secret-password@127.0.0.1:${port}/patriot` }));
      expect(fatal).toMatchObject({ database: `127.0.0.1:${port}/patriot`, code: "ECONNREFUSED" });
      expect(fatal.msg).toBe(`could not connect to PostgreSQL at 127.0.0.1:${port}/patriot (connect ECONNREFUSED 127.0.0.1:${port}): start PostgreSQL there, or correct DATABASE_URL, then start the server again`);
      expect(JSON.stringify(fatal)).not.toContain("secret-password");
    });

    it("a database that does not exist: says to create it", async () => {
      const url = new URL(process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
      url.pathname = "/no_such_database_for_this_test";
      const fatal = fatalOf(await run({ PORT: String(await freePort()), DATABASE_URL: url.href }));
      expect(fatal).toMatchObject({ code: "3D000" });
      expect(fatal.msg).toMatch(/^the database .*\/no_such_database_for_this_test does not exist \(.+\): create it \(createdb\), or correct DATABASE_URL$/);
    });

    it("no build, or no dependencies: says which command to run", async () => {
      const bare = mkdtempSync(path.join(tmpdir(), "no-build-"));
      try {
        copyFileSync(path.join(ROOT, "server.mjs"), path.join(bare, "server.mjs"));
        const noDependencies = fatalOf(await run({ PORT: String(await freePort()) }, bare));
        expect(noDependencies.msg).toBe("the dependencies are not installed: run npm install (or npm ci) first");
        symlinkSync(path.join(ROOT, "node_modules"), path.join(bare, "node_modules"));
        const noBuild = fatalOf(await run({ PORT: String(await freePort()) }, bare));
        expect(noBuild.msg).toBe("there is no build to serve: run npm run build first, or start with npm start, which builds when needed");
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
    });
  });

  describe("a running server", () => {
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let site: SiteProcess;

    beforeAll(async () => {
      database = await createPostgresDatabase();
      site = await startSite({ DATABASE_URL: database.url!, LOG_LEVEL: "info" });
    });
    afterAll(async () => {
      await site?.stop();
      await database?.drop();
    });

    it("writes better-auth's refusal (a foreign callback address) as one JSON warning with the request id, no colour codes", async () => {
      // The origin is the request's own (our guard and better-auth agree on it since decision 058),
      // but the address to come back to is foreign: better-auth itself refuses it and logs why.
      const response = await fetch(`${site.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: site.url, Cookie: "theme=dark" },
        body: JSON.stringify({ email: "nobody@example.com", password: "whatever-password", callbackURL: "https://evil.example/" }),
      });
      expect(response.status).toBe(403);
      const requestId = response.headers.get("x-request-id");
      expect(requestId).toBeTruthy();
      await site.stop();

      const output = site.output();
      // eslint-disable-next-line no-control-regex
      expect(output).not.toMatch(/\u001b\[/);
      const lines = jsonLines(output);
      const refused = lines.filter((line) => String(line.msg).startsWith("Invalid callbackURL"));
      expect(refused).toEqual([expect.objectContaining({ level: 40, requestId })]);
      // The request line of the same request, and nothing at error level from it. The two are
      // written from different callbacks (better-auth's logger, the answer's finish), so their
      // order in the output is not fixed.
      expect(lines.filter((line) => line.requestId === requestId).map((line) => line.level).sort()).toEqual([30, 40]);
      expect(lines.some((line) => Number(line.level) >= 50)).toBe(false);
    });
  });
});
