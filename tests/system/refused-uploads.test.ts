import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureHostResolves } from "../support/proxy/host-name";
import { startProxy } from "../support/proxy/start-proxy";
import { createAdmin, signIn } from "./support/admin-session";
import { freePort, startSite, type SiteProcess } from "./support/site";

const HOST = "news.example.test";
const ADMIN = { email: "refused-uploads@patriotinvestor.example", password: "Saratoga-Heights-1777!" };
const CLIENT = path.join(import.meta.dirname, "support/upload-client.mjs");
const MB = 1024 ** 2;
/** The sizes the issue tried: just over the image limit (15 MB), the proxy's old limit, well over both. */
const SIZES = [15.5, 16, 20];

type Upload = { url: string; headers: Record<string, string>; fields: Record<string, string>; fileBytes: number; streamed?: boolean };
type Outcome = { status: number; contentType: string | null; text: string; ms: number } | { error: string; ms: number };

/** Posts the uploads one after another with Node's fetch in its own process (trusting `ca`). */
function fetchUploads(uploads: Upload[], ca?: string): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT], { env: { ...process.env, ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) }, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(output) as Outcome[]) : reject(new Error(`the upload client exited ${code}:\n${errors}`))));
    child.stdin.end(JSON.stringify(uploads));
  });
}

/**
 * Every upload form, posted with Node's fetch at 15.5, 16 and 20 MB, straight to the app and
 * through the shipped TLS proxy (decision 128): each gets its answer with its text (the refusal
 * of a file over the limit, or of a file that is not what the form takes), never EPIPE or a reset.
 * The Do-Not-Call upload takes up to 1 GB: its refusal here is of the form (no add or remove
 * chosen), given after the whole file was read.
 */
describe("refused uploads reach Node's fetch, directly and behind the proxy", () => {
  // nginx's workers write buffered bodies below this folder: it must be theirs to pass through.
  const dir = mkdtempSync(path.join(tmpdir(), "refused-uploads-"));
  chmodSync(dir, 0o755);
  let site: SiteProcess;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let proxied: string;
  let cookie: string;

  beforeAll(async () => {
    await ensureHostResolves(HOST);
    // PGlite admits one process per folder: create the admin before the server opens it.
    createAdmin({ DATA_DIR: path.join(dir, "data") }, ADMIN);
    site = await startSite({ DATA_DIR: path.join(dir, "data"), MAIN_DOMAINS: HOST });
    const ports = { https: await freePort(), http: await freePort(), internalHost: await freePort(), forwarded: await freePort() };
    proxy = await startProxy({ dir: path.join(dir, "nginx"), host: HOST, ports, appPorts: [site.port] });
    proxied = `https://${HOST}:${ports.https}`;
    cookie = await signIn(site.url, ADMIN);
  });

  afterAll(async () => {
    await proxy?.stop();
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const forms: { name: string; path: string; accept: string; fields: Record<string, string>; streamed?: boolean; expect: (outcome: Outcome) => void }[] = [
    {
      name: "the article image upload form",
      path: "/admin/media",
      accept: "text/html",
      fields: { alt: "A picture far too large" },
      expect: (outcome) => expect(outcome).toMatchObject({ status: 413, text: expect.stringContaining("The file is larger than 15 MB.") }),
    },
    {
      name: "the editor's image upload (JSON), streamed",
      path: "/admin/media",
      accept: "application/json",
      fields: { alt: "A picture far too large" },
      streamed: true,
      expect: (outcome) => {
        expect(outcome).toMatchObject({ status: 413, contentType: expect.stringContaining("application/json") });
        expect(JSON.parse((outcome as { text: string }).text)).toMatchObject({ error: "The file is larger than 15 MB." });
      },
    },
    {
      name: "the Do-Not-Call upload",
      path: "/admin/dnc",
      accept: "text/html",
      fields: { dataDate: "2026-01-02", mode: "neither" },
      expect: (outcome) => expect(outcome).toMatchObject({ status: 400, text: expect.stringContaining("Choose whether the file") }),
    },
    {
      name: "the newsletter import",
      path: "/admin/newsletter/import",
      accept: "text/html",
      fields: {},
      expect: (outcome) => expect(outcome).toMatchObject({ status: 400, text: expect.stringContaining("Not Imported") }),
    },
    {
      name: "the reassigned-numbers answers",
      path: "/admin/rnd",
      accept: "text/html",
      fields: {},
      expect: (outcome) => expect(outcome).toMatchObject({ status: 400, text: expect.stringContaining("Not Imported") }),
    },
  ];

  for (const form of forms) {
    it(`${form.name}: every size gets its answer, directly and through the proxy`, async () => {
      const uploads = (base: string) =>
        SIZES.map((size) => ({ url: `${base}${form.path}`, headers: { Cookie: cookie, Origin: base, Accept: form.accept }, fields: form.fields, fileBytes: Math.round(size * MB), streamed: form.streamed }));
      const direct = await fetchUploads(uploads(site.url));
      const behindProxy = await fetchUploads(uploads(proxied), proxy.certificate);
      SIZES.forEach((size, index) => {
        for (const [where, outcome] of [["directly", direct[index]!], ["through the proxy", behindProxy[index]!]] as const) {
          expect(outcome, `${size} MB ${where}`).not.toHaveProperty("error");
          form.expect(outcome);
        }
      });
    });
  }

  it("a form over the proxy's own limit (16 MB) gets nginx's 413; one under it the app's", async () => {
    const form = (base: string, size: number) => ({ url: `${base}/opt-in`, headers: { Origin: base, Accept: "text/html" }, fields: { phone: "3125550100" }, fileBytes: Math.round(size * MB) });
    const [underProxyLimit, overProxyLimit] = await fetchUploads([form(proxied, 15.5), form(proxied, 20)], proxy.certificate);
    expect(underProxyLimit).toMatchObject({ status: 413, text: expect.stringContaining("The request body is larger than") });
    expect(overProxyLimit).toMatchObject({ status: 413, text: expect.stringContaining("413 Request Entity Too Large") });
  });
});
