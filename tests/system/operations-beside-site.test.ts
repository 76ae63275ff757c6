import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { socketDirFor, socketPathFor, SOCKET_PORT } from "~/db/pglite-socket.server";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { signIn } from "./support/admin-session";
import { runCommand } from "./support/command";
import { mobileNumber, postOptIn } from "./support/traffic";

const IMPORT_NUMBERS = 100_000;
const FIRST_ADMIN = { email: "first-admin@patriotinvestor.example", password: "Lexington-Green-1775!" };
const SECOND_ADMIN = { email: "second-admin@patriotinvestor.example", password: "Saratoga-Field-1777!" };

/**
 * The operator's commands while `npm start` serves the same DATA_DIR on the embedded database:
 * each one goes through the server's private socket, and the site keeps answering meanwhile.
 */
describe("commands beside a running site on the embedded database", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "ops-beside-"));
  let site: SiteProcess;

  const run = (script: string, args: string[]) => runCommand(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], dir);

  const query = async <T,>(text: string): Promise<T[]> => {
    const client = new pg.Client({ host: socketDirFor(path.join(dir, "pglite")), port: SOCKET_PORT, user: "postgres", database: "postgres" });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    site = await startSite({ DATA_DIR: dir });
  });
  afterAll(async () => {
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints a one-time setup link, and /setup makes the first admin once, then is a 404", async () => {
    const line = site.output().split("\n").find((text) => text.includes("setupUrl"));
    expect(line, site.output()).toBeTruthy();
    const setupUrl = new URL(JSON.parse(line!).setupUrl as string);
    expect(setupUrl.origin).toBe(BUILD_SITE_URL);
    const token = setupUrl.searchParams.get("token")!;
    expect(token.length).toBeGreaterThanOrEqual(40);

    const page = (query: string) => fetch(`${site.url}/setup${query}`, { redirect: "manual" });
    expect((await page("")).status).toBe(404);
    expect((await page(`?token=${token.slice(0, -1)}x`)).status).toBe(404);
    const form = await page(`?token=${token}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Create the First Admin");

    const post = (fields: Record<string, string>) =>
      fetch(`${site.url}/setup?token=${token}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
    const weak = await post({ token, email: FIRST_ADMIN.email, password: "password1" });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("too common");
    const created = await post({ token, ...FIRST_ADMIN });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/auth?notice=adminCreated");

    expect((await page(`?token=${token}`)).status).toBe(404);
    expect((await post({ token, email: "intruder@example.com", password: "Another-Long-Pass-1" })).status).toBe(404);
    expect(await signIn(site.url, FIRST_ADMIN)).toContain("session_token=");
    const admin = await fetch(`${site.url}/admin/subscribers`, { headers: { Cookie: await signIn(site.url, FIRST_ADMIN) }, redirect: "manual" });
    expect(admin.status).toBe(200);
  });

  it("admin:create works beside the server and queues no verification mail", async () => {
    const result = await run("admin-create.ts", [SECOND_ADMIN.email, SECOND_ADMIN.password]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Admin ${SECOND_ADMIN.email} created`);
    expect(await signIn(site.url, SECOND_ADMIN)).toContain("session_token=");
    expect(await query("SELECT * FROM email_messages")).toEqual([]);
  });

  it(`dnc:import of ${IMPORT_NUMBERS.toLocaleString("en-US")} numbers (and --remove) runs while the site keeps answering`, async () => {
    const file = path.join(dir, "dnc-area.txt");
    const out = createWriteStream(file);
    for (let i = 0; i < IMPORT_NUMBERS; i++) out.write(`${mobileNumber(i).slice(0, 3)},${mobileNumber(i).slice(3)}\n`);
    out.write("not a number\n");
    out.end();
    await once(out, "finish");

    const importing = run("dnc-import.ts", [file, "--date", new Date().toISOString().slice(0, 10)]);
    let done = false;
    void importing.then(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${site.url}/opt-in`, { signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      await response.text();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await importing;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${IMPORT_NUMBERS.toLocaleString("en-US")} added, 1 bad lines`);
    expect(result.stderr).toMatch(/\[#+\]/);
    // The site answered all along, most pages at once (a chunk holds the session for a moment).
    expect(latencies.length).toBeGreaterThan(5);
    latencies.sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_000);
    const [count] = await query<{ n: string }>("SELECT count(*)::text AS n FROM dnc_numbers");
    expect(Number(count!.n)).toBe(IMPORT_NUMBERS);

    const changes = path.join(dir, "dnc-changes.txt");
    const removed = Array.from({ length: 10 }, (_, i) => mobileNumber(i));
    await new Promise<void>((resolve) => createWriteStream(changes).end(`${removed.join("\n")}\n`, resolve));
    const removal = await run("dnc-import.ts", [changes, "--remove", "--date", new Date().toISOString().slice(0, 10)]);
    expect(removal.code, removal.stderr).toBe(0);
    expect(removal.stdout).toContain("10 removed");
    const [after] = await query<{ n: string }>("SELECT count(*)::text AS n FROM dnc_numbers");
    expect(Number(after!.n)).toBe(IMPORT_NUMBERS - 10);
  });

  it("db:export, db:import and db:migrate work beside the server", async () => {
    const file = path.join(dir, "export.jsonl.gz");
    const exported = await run("db-export.ts", [file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/dnc_numbers\s+99,990/);
    expect(existsSync(file)).toBe(true);
    // db:import reaches the running site's database too, and refuses it as a target holding data.
    const imported = await run("db-import.ts", [file, "--data-dir", dir]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain("already holds data");
    const migrated = await run("db-migrate.ts", []);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
  });

  it("behind one shared address (carrier-grade NAT) 200 people opt in within a minute; one number repeated is throttled", async () => {
    const address = "198.18.200.7";
    const started = Date.now();
    const statuses: number[] = [];
    for (let batch = 0; batch < 200; batch += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => postOptIn(site.url, mobileNumber(900_000 + batch + i), { "X-Forwarded-For": address })),
      );
      statuses.push(...answers.map((answer) => answer.status ?? 0));
    }
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses.filter((status) => status === 200)).toHaveLength(200);

    const repeated = [];
    for (let i = 0; i < 6; i++) repeated.push((await postOptIn(site.url, mobileNumber(950_000), { "X-Forwarded-For": `198.18.201.${i + 1}` })).status);
    expect(repeated.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(repeated[5]).toBe(429);
  });

  it("an upload cut off in the middle changes nothing and leaves no file behind", async () => {
    const cookie = await signIn(site.url, FIRST_ADMIN);
    const [before] = await query<{ numbers: string; uploads: string }>(
      "SELECT (SELECT count(*) FROM dnc_numbers)::text AS numbers, (SELECT count(*) FROM dnc_uploads)::text AS uploads",
    );
    const boundary = "----cut-off-upload";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="dataDate"\r\n\r\n${new Date().toISOString().slice(0, 10)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nadd\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const request = http.request(`${site.url}/admin/dnc`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(50_000_000), Cookie: cookie, Origin: site.url },
    });
    request.on("error", () => {});
    request.write(head);
    for (let i = 0; i < 20_000; i++) request.write(`646,${mobileNumber(i).slice(3)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    request.destroy();

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await query("SELECT count(*)::text AS numbers, (SELECT count(*) FROM dnc_uploads)::text AS uploads FROM dnc_numbers")).toEqual([before]);
    expect(readdirSync(path.join(dir, "uploads"))).toEqual([]);
    expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
  });

  it("the socket is reachable by its owner only", () => {
    expect(statSync(socketDirFor(path.join(dir, "pglite"))).mode & 0o777).toBe(0o700);
    expect(statSync(socketPathFor(path.join(dir, "pglite"))).mode & 0o777).toBe(0o600);
  });
});
