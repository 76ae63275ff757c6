import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { IMPORT_PAGE_TEXTS as T } from "~/lib/import-texts";
import { cancelRun, getRun } from "~/services/import/runs.server";
import { useTestDatabase } from "../../tests/support/test-db";
import { handleImportUpload } from "./import-upload-request.server";

/** The admin's import upload: the export and, optionally, the old site's uploads as a .zip beside it. */

// The uploads land in DATA_DIR/imports: a folder of this file's own, set before the env is first read.
const dataDir = await vi.hoisted(async () => {
  const [{ mkdtempSync: makeTemp }, { tmpdir: tempRoot }, { join }] = await Promise.all([import("node:fs"), import("node:os"), import("node:path")]);
  const made = makeTemp(join(tempRoot(), "import-upload-"));
  process.env.DATA_DIR = made;
  return made;
});
const imports = path.join(dataDir, "imports");
const listImports = () => (existsSync(imports) ? readdirSync(imports).sort() : []);

const EXPORT = readFileSync("tests/fixtures/import/wordpress-job.xml");

function uploadsZip() {
  const root = mkdtempSync(path.join(tmpdir(), "import-upload-tree-"));
  mkdirSync(path.join(root, "wp-content/uploads/2026/03"), { recursive: true });
  writeFileSync(path.join(root, "wp-content/uploads/2026/03/bars.jpg"), "a picture");
  const zip = path.join(root, "uploads.zip");
  execFileSync("zip", ["-q", "-r", zip, "wp-content"], { cwd: root });
  return readFileSync(zip);
}

function upload(files: { export?: Buffer; uploads?: { bytes: Buffer; name: string } }) {
  const form = new FormData();
  form.set("kind", "wordpress");
  if (files.export) form.set("file", new Blob([new Uint8Array(files.export)]), "export.xml");
  if (files.uploads) form.set("uploads", new Blob([new Uint8Array(files.uploads.bytes)]), files.uploads.name);
  return new Request("https://news.example.test/admin/import", { method: "POST", body: form });
}

async function outcome(request: Request, db: Parameters<typeof handleImportUpload>[1]) {
  try {
    const refused = await handleImportUpload(request, db, "admin@example.com");
    return { status: refused.init?.status ?? 200, notice: refused.data.notice };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") ?? "" };
    throw thrown;
  }
}

describe("POST /admin/import with the old site's uploads as a .zip", () => {
  const database = useTestDatabase("pglite");

  it("stores the export and the .zip beside it, and removes both when the run is cancelled", async () => {
    const before = listImports();
    const answer = await outcome(upload({ export: EXPORT, uploads: { bytes: uploadsZip(), name: "uploads.zip" } }), database.db);
    expect(answer).toMatchObject({ status: 303, location: expect.stringMatching(/^\/admin\/import\/\d+$/) });
    const run = (await getRun(database.db, Number(answer.location!.split("/").pop())))!;
    expect(path.dirname(run.filePath)).toBe(imports);
    expect(path.dirname(run.options.uploadsPath!)).toBe(imports);
    expect(readFileSync(run.options.uploadsPath!).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(listImports()).toHaveLength(before.length + 2);

    await cancelRun(database.db, run.id, "admin@example.com");
    expect(listImports()).toEqual(before);
  });

  it("refuses an uploads file that is no .zip with 400 and keeps neither file", async () => {
    const before = listImports();
    const answer = await outcome(upload({ export: EXPORT, uploads: { bytes: Buffer.from("<rss>an export again</rss>"), name: "uploads.zip" } }), database.db);
    expect(answer).toMatchObject({ status: 400, notice: { title: T.notUploaded, description: T.uploadsNotZip } });
    expect(listImports()).toEqual(before);
  });

  it("takes the export alone when the uploads input is left empty", async () => {
    const before = listImports();
    const answer = await outcome(upload({ export: EXPORT, uploads: { bytes: Buffer.alloc(0), name: "" } }), database.db);
    expect(answer.status).toBe(303);
    const run = (await getRun(database.db, Number(answer.location!.split("/").pop())))!;
    expect(run.options.uploadsPath).toBeUndefined();
    expect(listImports()).toEqual([...before, path.basename(run.filePath)].sort());
  });
});
