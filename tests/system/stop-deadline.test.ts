import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { startSite } from "./support/site";

/** Issue 21: a stop always stops, within the documented 10 s, whatever the process is doing. */
describe("a stop always stops", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const levels = (output: string) => output.split("\n").filter((line) => /"level":(50|60)/.test(line));

  it("SIGTERM during the first render of the content pages (sent by a parent that then goes away)", async () => {
    const site = await startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info" }, { waitUntilReady: false });
    // The signal comes the moment the server listens: the content pages are being rendered then.
    const deadline = Date.now() + 60_000;
    while (!site.output().includes('"msg":"listening on') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(site.output()).not.toContain("content pages ready");
    const signalled = Date.now();
    site.child.kill("SIGTERM");
    // Its reader is gone as well, as with a parent that exited: every later line meets a closed pipe.
    site.child.stdout!.destroy();
    expect(await site.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(levels(site.output())).toEqual([]);
  });

  it("SIGTERM with stdout closed by its reader", async () => {
    const site = await startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info" });
    site.child.stdout!.destroy();
    // Requests still get answers (and log lines that cannot be written) before the stop.
    for (let i = 0; i < 5; i++) expect((await fetch(`${site.url}/auth`)).status).toBe(200);
    const signalled = Date.now();
    site.child.kill("SIGTERM");
    expect(await site.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  });

  it("past the deadline a hanging step is named and the process exits non-zero", async () => {
    const site = await startSite({ DATABASE_URL: database.url, LOG_LEVEL: "info" });
    // Another session holds a lock the text sender needs: its next pass waits, and so would a stop.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE campaign_recipients IN ACCESS EXCLUSIVE MODE");
      const waiting = async () =>
        Number((await blocker.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n);
      await expect.poll(waiting, { timeout: 15_000 }).toBeGreaterThan(0);
      const signalled = Date.now();
      site.child.kill("SIGTERM");
      expect(await site.exited).toBe(1);
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(9_500);
      expect(took).toBeLessThan(12_000);
      const [line] = levels(site.output());
      expect(JSON.parse(line!)).toMatchObject({ level: 60, stillRunning: ["stopping the senders, housekeeping and the database"] });
    } finally {
      await blocker.end();
    }
  });
});
