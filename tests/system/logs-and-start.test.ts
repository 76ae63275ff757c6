import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { startSite, type SiteProcess } from "./support/site";

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
      const addresses = site.output().match(/https?:\/\/[^\s"\\/]+/g) ?? [];
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
      // The request line of the same request, and nothing at error level from it.
      expect(lines.filter((line) => line.requestId === requestId).map((line) => line.level)).toEqual([40, 30]);
      expect(lines.some((line) => Number(line.level) >= 50)).toBe(false);
    });
  });
});
