import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNumber, type DatabaseHandle } from "~/db/client.server";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, rows } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const NAVIGATION = { "User-Agent": CHROME, "Accept-Language": "en-US,en;q=0.9", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "cross-site" };
const CODE = "NwsL1nk7";

/**
 * A newsletter's short link over HTTP on the production server (decision 151): everyone gets the
 * redirect; a reader's click is a person's, and a gateway's fetch seconds after the copy went out,
 * a HEAD, a preview and a browser name without a browser's headers are machines', each recorded
 * once with its reason.
 */
describe("short-link requests from people and machines", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let site: SiteProcess;
  let handle: DatabaseHandle;
  let justSent = 0;
  let sentYesterday = 0;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    site = await startSite({ DATABASE_URL: database.url });
    handle = await openSiteDatabase({ url: database.url });
    const [campaign] = await rows<{ id: string }>(
      handle,
      "INSERT INTO campaigns (channel, name, body, status) VALUES ('email', 'Weekly', '1', 'completed') RETURNING id",
    );
    await rows(handle, `INSERT INTO short_links (code, url, campaign_id) VALUES ('${CODE}', 'https://news.example.test/articles/bonds-guide', '${campaign!.id}')`);
    const copies = await rows<{ id: unknown }>(
      handle,
      `INSERT INTO campaign_recipients (campaign_id, address, state, sent_at) VALUES
        ('${campaign!.id}', 'fresh@example.com', 'sent', now()),
        ('${campaign!.id}', 'reader@example.com', 'sent', now() - interval '1 day')
       RETURNING id`,
    );
    justSent = toNumber(copies[0]!.id);
    sentYesterday = toNumber(copies[1]!.id);
  });

  afterAll(async () => {
    await handle?.close();
    await site?.stop();
    await database?.drop();
  });

  /**
   * Over node:http, which sends the headers as given: fetch (undici) always says
   * `Sec-Fetch-Mode: cors`, as a script's request in a page would, never `navigate`.
   */
  const open = (query: string, init: { method?: string; headers: Record<string, string> }) =>
    new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const request = httpRequest(`${site.url}/l/${CODE}${query}`, { method: init.method ?? "GET", headers: init.headers }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
      });
      request.on("error", reject);
      request.end();
    });

  it("redirects everyone and records each request once, as a person's click or a machine's fetch with its reason", async () => {
    const answers = await Promise.all([
      open(`?c=${sentYesterday}`, { headers: NAVIGATION }), // a reader, a day after the copy
      open(`?c=${sentYesterday}.`, { headers: NAVIGATION }), // the same, with the sentence's full stop
      open(`?c=${justSent}`, { headers: NAVIGATION }), // a gateway with a browser's name, on delivery
      open(`?c=${sentYesterday}`, { method: "HEAD", headers: NAVIGATION }),
      open("", { headers: { "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0" } }),
      open("", { headers: { "User-Agent": CHROME, "Accept-Language": "en-US", "Sec-Fetch-Mode": "cors" } }), // a script's fetch, not a navigation
      open("", { headers: { "User-Agent": "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0) Mimecast" } }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.location).toBe("https://news.example.test/articles/bonds-guide");
    }
    // Recorded after the answer: wait for all seven.
    const deadline = Date.now() + 10_000;
    let recorded: { machine: string | null; n: unknown }[] = [];
    while (Date.now() < deadline) {
      recorded = await rows(handle, `SELECT machine, count(*) AS n FROM link_clicks WHERE code = '${CODE}' GROUP BY machine ORDER BY machine NULLS FIRST`);
      if (recorded.reduce((sum, row) => sum + toNumber(row.n), 0) >= 7) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recorded.map((row) => [row.machine, toNumber(row.n)])).toEqual([
      [null, 2],
      ["head", 1],
      ["link-preview", 1],
      ["mail-scanner", 1],
      ["missing-headers", 1],
      ["soon-after-delivery", 1],
    ]);
  });
});
