import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getImageFile, storeImage } from "~/services/content/media.server";
import { DB_KINDS, useTestDatabase } from "../../tests/support/test-db";
import { answerMediaFile, MediaCache } from "./media-files.server";

describe.each(DB_KINDS)("serving uploaded images (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("answers each stored file with its type, a year of immutable caching and an ETag; 304 on a match; 404 for unknown", async () => {
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#205080" } }).png().toBuffer();
    const stored = await storeImage(database.db, { file: png, originalName: "blue.png", alt: "A blue rectangle", actor: "e" });
    if (!stored.ok) throw new Error(stored.code);
    const id = stored.asset.id;
    let loads = 0;
    const load = async (...args: Parameters<typeof getImageFile> extends [unknown, ...infer Rest] ? Rest : never) => {
      loads += 1;
      return getImageFile(database.db, ...args);
    };
    for (const [file, type] of [
      ["480.avif", "image/avif"],
      ["800.webp", "image/webp"],
      ["900.jpg", "image/jpeg"],
    ] as const) {
      const answer = await answerMediaFile("GET", `/media/${id}/${file}`, undefined, load);
      expect(answer.status, file).toBe(200);
      if (answer.status !== 200) continue;
      expect(answer.headers).toMatchObject({ "Content-Type": type, "Cache-Control": "public, max-age=31536000, immutable", ETag: `"${id}-${file.split(".")[0]}-${type.slice(6)}"` });
      expect(answer.headers["Content-Length"]).toBe(String(answer.body.length));
      expect((await sharp(answer.body).metadata()).width).toBe(Number(file.split(".")[0]));
    }
    const loadsAfterFirst = loads;
    const again = await answerMediaFile("GET", `/media/${id}/900.jpg`, undefined, load);
    expect(again.status).toBe(200);
    expect(loads).toBe(loadsAfterFirst);
    const etag = again.headers.ETag!;
    expect(await answerMediaFile("GET", `/media/${id}/900.jpg`, `"other", ${etag}`, load)).toMatchObject({ status: 304, headers: { ETag: etag } });

    for (const path of [`/media/${id}/1200.jpg`, `/media/${id}/900.png`, `/media/00000000-0000-4000-8000-000000000000/480.jpg`, `/media/${id}/../480.jpg`, `/media/${id}`]) {
      expect((await answerMediaFile("GET", path, undefined, load)).status, path).toBe(404);
    }
    expect(await answerMediaFile("POST", `/media/${id}/900.jpg`, undefined, load)).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD" } });
  }, 60_000);
});

describe("the memory cache", () => {
  it("keeps at most its byte budget, dropping the least recently used first", () => {
    const cache = new MediaCache(100);
    const entry = (size: number) => ({ bytes: Buffer.alloc(size), contentType: "image/jpeg", etag: '"x"' });
    cache.set("a", entry(40));
    cache.set("b", entry(40));
    cache.get("a");
    cache.set("c", entry(40));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
    expect(cache.bytes).toBe(80);
    cache.set("huge", entry(101));
    expect(cache.get("huge")).toBeUndefined();
  });
});
