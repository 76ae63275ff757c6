import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_LIMIT } from "~/http/body.server";
import { MEDIA_UPLOAD_MAX_BYTES } from "~/services/content/media.server";
import { DNC_UPLOAD_MAX_BYTES } from "~/services/dnc/upload.server";
import { DRAIN_MAX_BYTES } from "../../server/unread-body";
import { twoRequestsOnOneConnection, type FirstRequest } from "../support/keep-alive";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, rows } from "./support/inspect";
import { createAdmin, signIn } from "./support/admin-session";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { randomClientIp } from "./support/traffic";

const ADMIN = { email: "refused-bodies@patriotinvestor.example", password: "Ticonderoga-Fort-1775!" };
const READER = { email: "refused-bodies-reader@patriotinvestor.example", password: "Monmouth-Court-1778!" };
const BOUNDARY = "----refused-bodies";

/** A multipart body with one file part of `fileBytes` bytes, as the upload forms send it. */
function multipart(fields: Record<string, string>, fileBytes: number) {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const head = `${parts.join("")}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(fileBytes, 255), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/**
 * Every route that refuses a body, on a keep-alive connection: after the refusal, the next
 * request on the same connection is answered, or the refusal said `Connection: close` (and the
 * server closed it). A small refused body is read and dropped, so the connection stays.
 */
describe("refused request bodies and the connection they came on", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let site: SiteProcess;
  let admin: string;
  let reader: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    site = await startSite({ DATABASE_URL: database.url });
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    admin = await signIn(site.url, ADMIN);
    const signUp = await fetch(`${site.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ ...READER, name: "reader" }),
    });
    expect(signUp.status).toBe(200);
    const handle = await openSiteDatabase({ url: database.url });
    try {
      await rows(handle, `UPDATE "user" SET email_verified = true WHERE email = '${READER.email}'`);
    } finally {
      await handle.close();
    }
    reader = await signIn(site.url, READER);
  }, 120_000);

  afterAll(async () => {
    await site?.stop();
    await database?.drop();
  });

  const send = (first: Omit<FirstRequest, "headers"> & { headers?: Record<string, string> }) =>
    twoRequestsOnOneConnection(site.url, { ...first, headers: { Origin: site.url, "X-Forwarded-For": randomClientIp(), ...first.headers } }, "/healthz", 5_000);

  const form = (bytes: number) => ({ method: "POST", path: "/opt-in", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: Buffer.from(`phone=${"1".repeat(bytes)}`) });

  it("the form body limit: a form a little over it is answered 413 and the connection answers the next request", async () => {
    const outcome = await send(form(FORM_BODY_LIMIT * 4));
    expect(outcome).toMatchObject({ first: { status: 413 }, said: "keep-alive", second: { status: 200 } });
  });

  it("the form body limit: a form far over it is answered 413 with Connection: close, and closed", async () => {
    const outcome = await send(form(DRAIN_MAX_BYTES * 4));
    expect(outcome).toMatchObject({ first: { status: 413 }, said: "close", closedByServer: true });
  });

  it("better-auth's endpoints under the same limit", async () => {
    const body = Buffer.from(JSON.stringify({ email: "x@example.com", password: "p".repeat(DRAIN_MAX_BYTES * 2) }));
    const outcome = await send({ method: "POST", path: "/api/auth/sign-in/email", headers: { "Content-Type": "application/json" }, body });
    expect(outcome).toMatchObject({ first: { status: 413 }, said: "close", closedByServer: true });
  });

  it("the article image upload over 15 MB: 413 before the file is read, Connection: close, closed (page form and the editor's JSON upload)", async () => {
    const declaredLength = MEDIA_UPLOAD_MAX_BYTES + 1024 ** 2;
    const body = multipart({ alt: "A picture far too large" }, 512 * 1024);
    for (const accept of ["text/html", "application/json"]) {
      const outcome = await send({ method: "POST", path: "/admin/media", headers: { Cookie: admin, Accept: accept, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` }, body, declaredLength });
      expect(outcome, accept).toMatchObject({ first: { status: 413 }, said: "close", closedByServer: true });
      expect(outcome.first.body, accept).toContain("larger than 15 MB");
    }
  });

  it("the DNC upload over its limit: 413 before the file is read, Connection: close, closed", async () => {
    const declaredLength = DNC_UPLOAD_MAX_BYTES + 1024 ** 2;
    const body = multipart({ dataDate: "2026-01-02", mode: "add" }, 512 * 1024);
    const outcome = await send({ method: "POST", path: "/admin/dnc", headers: { Cookie: admin, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` }, body, declaredLength });
    expect(outcome).toMatchObject({ first: { status: 413 }, said: "close", closedByServer: true });
  });

  it("a reader's upload is refused (403) unread: a small one leaves the connection usable, a large one closes it", async () => {
    for (const accept of ["text/html", "application/json"]) {
      const headers = { Cookie: reader, Accept: accept, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` };
      const small = await send({ method: "POST", path: "/admin/media", headers, body: multipart({ alt: "A reader's picture" }, 100 * 1024) });
      expect(small, accept).toMatchObject({ first: { status: 403 }, said: "keep-alive", second: { status: 200 } });
      const large = await send({ method: "POST", path: "/admin/media", headers, body: multipart({ alt: "A reader's picture" }, 4 * 1024 ** 2) });
      expect(large, accept).toMatchObject({ first: { status: 403 }, said: "close", closedByServer: true });
    }
  });
});
