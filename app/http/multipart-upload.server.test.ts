import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { receiveMultipart, UploadError } from "./multipart-upload.server";

/** Multipart bodies as a browser's form sends them (undici's FormData), streamed to a folder of their own. */

function post(parts: Record<string, string | { bytes: Buffer; name: string }>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === "string") form.set(name, part);
    else form.set(name, new Blob([new Uint8Array(part.bytes)]), part.name);
  }
  return new Request("https://news.example.test/admin/import", { method: "POST", body: form, headers });
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("receiveMultipart", () => {
  it("takes one file as before: `file` is the field's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "multipart-"));
    const bytes = Buffer.from("<rss/>");
    const received = await receiveMultipart(post({ kind: "wordpress", file: { bytes, name: "export.xml" } }), { dir, maxBytes: 100, fileField: "file" });
    expect(received.fields).toEqual({ kind: "wordpress" });
    expect(received.file).toMatchObject({ name: "export.xml", bytes: 6, sha256: sha256(bytes) });
    expect(received.files).toEqual({ file: received.file });
    expect(readFileSync(received.file!.path)).toEqual(bytes);
  });

  it("takes two named files, each within its own limit; a third is refused and none is kept", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "multipart-"));
    const exported = Buffer.alloc(90, 1);
    const zip = Buffer.alloc(900, 2);
    const received = await receiveMultipart(post({ file: { bytes: exported, name: "export.xml" }, uploads: { bytes: zip, name: "uploads.zip" } }), { dir, fileFields: { file: 100, uploads: 1_000 } });
    expect(received.file).toMatchObject({ name: "export.xml", bytes: 90, sha256: sha256(exported) });
    expect(received.files.uploads).toMatchObject({ name: "uploads.zip", bytes: 900, sha256: sha256(zip) });
    expect(readFileSync(received.files.uploads!.path)).toEqual(zip);
    expect(readdirSync(dir).sort()).toEqual([path.basename(received.file!.path), path.basename(received.files.uploads!.path)].sort());

    const elsewhere = mkdtempSync(path.join(tmpdir(), "multipart-"));
    const three = post({ file: { bytes: exported, name: "export.xml" }, uploads: { bytes: zip, name: "uploads.zip" }, other: { bytes: Buffer.from("x"), name: "x.bin" } });
    await expect(receiveMultipart(three, { dir: elsewhere, fileFields: { file: 100, uploads: 1_000 } })).rejects.toMatchObject({ status: 400, message: "Upload at most 2 files." });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("refuses a file over its own field's limit (though under the other's) and keeps neither file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "multipart-"));
    const over = post({ file: { bytes: Buffer.alloc(101, 1), name: "export.xml" }, uploads: { bytes: Buffer.alloc(500, 2), name: "uploads.zip" } });
    const error = await receiveMultipart(over, { dir, fileFields: { file: 100, uploads: 1_000 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 413 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a body declared longer than all the files' limits together before reading it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "multipart-"));
    const declared = String(100 + 1_000 + 64 * 1024 + 1);
    const request = post({ file: { bytes: Buffer.from("x"), name: "export.xml" } }, { "content-length": declared });
    await expect(receiveMultipart(request, { dir, fileFields: { file: 100, uploads: 1_000 } })).rejects.toMatchObject({ status: 413 });
    // Within the sum it is read.
    const within = post({ file: { bytes: Buffer.from("x"), name: "export.xml" } }, { "content-length": String(100 + 1_000) });
    expect((await receiveMultipart(within, { dir, fileFields: { file: 100, uploads: 1_000 } })).file).toMatchObject({ bytes: 1 });
  });
});
