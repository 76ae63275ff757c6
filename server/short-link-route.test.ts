import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The short-link route reads the process's database: an in-memory one for this file.
vi.hoisted(() => {
  process.env.DATA_DIR = "memory";
});

const { handleFastRoute } = await import("./fast-routes");
const { closeDatabase, getDb } = await import("~/db/database.server");
const { shortLinks } = await import("~/db/schema");
const { shortCodeFromPath } = await import("~/http/short-link.server");

const CODE = "AbCd234";
const TARGET = "https://www.example.com/articles/gold-guide?utm_source=sms";

/** `/l/<code>` as the production server answers it (server/fast-routes.ts, before the router). */
describe("the short-link route", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    await (await getDb()).insert(shortLinks).values({ code: CODE, url: TARGET });
    server = createServer((req, res) => {
      if (!handleFastRoute(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await closeDatabase();
  });

  const get = (path: string, method = "GET") => fetch(`${base}${path}`, { method, redirect: "manual", headers: { "User-Agent": "facebookexternalhit/1.1" } });

  it("redirects a code as it is", async () => {
    const answer = await get(`/l/${CODE}`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(TARGET);
  });

  // What a mail or SMS app takes into the link from the end of a sentence, as typed and percent-encoded.
  for (const trailing of [".", ",", ";", ":", "!", "?", ")", "]", ").", "]!", "%2E", "%29", "%5D"]) {
    it(`redirects a code followed by ${trailing}`, async () => {
      const answer = await get(`/l/${CODE}${trailing}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(TARGET);
      expect((await get(`/l/${CODE}${trailing}`, "HEAD")).status).toBe(302);
    });
  }

  it("still answers 404 for another code, or a code with anything else after it", async () => {
    for (const path of ["/l/ZzZz999", `/l/${CODE}x`, `/l/${CODE}-`, `/l/${CODE}/`, "/l/.", "/l/%E0%A4%A"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(await answer.text()).toContain("Link not found");
    }
  });

  it("strips only the trailing punctuation", () => {
    expect(shortCodeFromPath("AbCd234.),")).toBe("AbCd234");
    expect(shortCodeFromPath("Ab.Cd234")).toBe("Ab.Cd234");
    expect(shortCodeFromPath("%E0%A4%A")).toBe("%E0%A4%A");
  });
});
