import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IMAGE_FAILURES } from "~/lib/import-texts";
import { MEDIA_UPLOAD_MAX_BYTES } from "~/services/content/media.server";
import { openUploads, UploadsError, type UploadsSource } from "./uploads-source.server";

/** The old site's uploads as a folder and as .zip files made with Debian's `zip`, as operators make them. */

const dir = mkdtempSync(path.join(tmpdir(), "uploads-source-"));
const opened: UploadsSource[] = [];
afterAll(() => opened.forEach((source) => source.close()));

function tree(name: string, files: Record<string, string | Buffer>) {
  const root = path.join(dir, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

/** A .zip of `root`'s contents (the archive's own root is whatever `root` holds). */
function zipOf(root: string, name: string) {
  const file = path.join(dir, name);
  execFileSync("zip", ["-q", "-r", file, "."], { cwd: root });
  return file;
}

async function open(location: string) {
  const source = await openUploads(location);
  opened.push(source);
  return source;
}

const text = async (source: UploadsSource, wanted: string) => {
  const read = await source.read(wanted);
  return read.ok ? read.bytes.toString() : `(${read.reason})`;
};
const notThere = `(${IMAGE_FAILURES.notInUploads})`;

describe("the old site's uploads as a .zip", () => {
  it.each([
    ["the uploads folder's contents", "", "plain.zip"],
    ["the uploads folder itself", "uploads/", "uploads.zip"],
    ["WordPress's whole wp-content", "wp-content/uploads/", "wp-content.zip"],
    ["Ghost's images folder", "images/", "ghost.zip"],
  ])("finds a file by its path under the uploads in an archive of %s", async (_label, prefix, name) => {
    const root = tree(`tree-${name}`, { [`${prefix}2024/03/bar.jpg`]: "bar of 2024", [`${prefix}2025/01/bar.jpg`]: "bar of 2025", [`${prefix}top.png`]: "top" });
    const source = await open(zipOf(root, name));
    expect(source.kind).toBe("zip");
    expect(await text(source, "2024/03/bar.jpg")).toBe("bar of 2024");
    expect(await text(source, "2025/01/bar.jpg")).toBe("bar of 2025");
    expect(await text(source, "top.png")).toBe("top");
    expect(await text(source, "2024/03/missing.jpg")).toBe(notThere);
  });

  it("matches at a folder boundary only, and prefers the name nearest the archive's root", async () => {
    const root = tree("several", {
      "x2024/03/bar.jpg": "not at a boundary",
      "wp-content/uploads/2024/03/bar.jpg": "the site's",
      "backup/old-site/wp-content/uploads/2024/03/bar.jpg": "an old backup's",
      "only-here/2024/05/solo.jpg": "solo",
    });
    const source = await open(zipOf(root, "several.zip"));
    expect(await text(source, "2024/03/bar.jpg")).toBe("the site's");
    expect(await text(source, "2024/05/solo.jpg")).toBe("solo");
    // "2024/03/bar.jpg" must not match "x2024/03/bar.jpg" alone.
    const boundary = await open(zipOf(tree("boundary", { "x2024/03/bar.jpg": "not at a boundary" }), "boundary.zip"));
    expect(await text(boundary, "2024/03/bar.jpg")).toBe(notThere);
  });

  it("answers nothing for a path that climbs out of the uploads", async () => {
    const root = tree("traversal", { "secret.txt": "secret", "uploads/2024/03/bar.jpg": "bar" });
    const source = await open(zipOf(root, "traversal.zip"));
    for (const wanted of ["../secret.txt", "2024/../../secret.txt", "2024/03/../../../secret.txt", "/../secret.txt", "./secret.txt", "2024//03/bar.jpg", "", "..\\secret.txt"]) {
      expect(await text(source, wanted), wanted).toBe(notThere);
    }
    // The same for a folder: nothing beside it is reached.
    const folder = await open(path.join(root, "uploads"));
    expect(folder.kind).toBe("folder");
    expect(await text(folder, "2024/03/bar.jpg")).toBe("bar");
    expect(await text(folder, "../secret.txt")).toBe(notThere);
    expect(await text(folder, "2024/../../secret.txt")).toBe(notThere);
  });

  it("refuses an entry over the upload limit by its declared size, and one whose size lies as it reads", async () => {
    // Zeros compress to almost nothing: a small archive that would unpack past the limit.
    const root = tree("large", { "2024/03/huge.jpg": Buffer.alloc(MEDIA_UPLOAD_MAX_BYTES + 1), "2024/03/liar.jpg": Buffer.alloc(2 * 1024 ** 2, 7) });
    const file = zipOf(root, "large.zip");
    const source = await open(file);
    expect(await text(source, "2024/03/huge.jpg")).toBe(`(${IMAGE_FAILURES.tooLarge(MEDIA_UPLOAD_MAX_BYTES / 1024 ** 2)})`);
    expect((await source.read("2024/03/liar.jpg")).ok).toBe(true);

    // The central directory says the second file is 100 bytes: reading stops when it holds more.
    const bytes = readFileSync(file);
    const central = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), bytes.lastIndexOf(Buffer.from("2024/03/liar.jpg")));
    expect(central).toBeGreaterThan(0);
    bytes.writeUInt32LE(100, central + 24);
    const lying = path.join(dir, "lying.zip");
    writeFileSync(lying, bytes);
    const liar = await open(lying);
    const read = await liar.read("2024/03/liar.jpg");
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.reason).toMatch(/cannot be read from the \.zip/);
  });

  it("refuses a file that is no .zip, a damaged one and a path that is not there", async () => {
    const notZip = path.join(dir, "export.zip");
    writeFileSync(notZip, "<rss>not an archive</rss>");
    await expect(openUploads(notZip)).rejects.toThrow(UploadsError);
    const good = readFileSync(zipOf(tree("cut", { "2024/03/bar.jpg": "bar" }), "cut.zip"));
    const cut = path.join(dir, "cut-short.zip");
    writeFileSync(cut, good.subarray(0, good.length - 30));
    await expect(openUploads(cut)).rejects.toThrow(/\.zip/);
    await expect(openUploads(path.join(dir, "nowhere.zip"))).rejects.toThrow(/not there/);
  });
});
