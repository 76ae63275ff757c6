import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { auditLog, mediaAssets, mediaFiles } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { getImageFile, listImages, storeImage } from "./media.server";

/** A 2000x1000 photo-like JPEG with GPS in its EXIF, stored sideways (orientation 6: turn right). */
async function sidewaysPhotoWithGps() {
  const width = 2000;
  const height = 1000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = x < width / 2 ? 200 : 40;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: "TestCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 26/1 46/1", GPSLongitudeRef: "W", GPSLongitude: "79/1 58/1 56/1" } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe.each(DB_KINDS)("uploaded images (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("stores AVIF, WebP and JPEG at each width up to 1600, upright and without any metadata", async () => {
    const original = await sidewaysPhotoWithGps();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    // The EXIF block points to a GPS directory (tag 0x8825, little-endian).
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const result = await storeImage(database.db, { file: original, originalName: "vault.jpg", alt: "Gold bars in a vault", actor: "editor@example.com" });
    if (!result.ok) throw new Error(result.code);
    // Upright, the 2000x1000 picture is 1000 wide and 2000 high: widths 480, 800 and 1000.
    expect(result.asset).toMatchObject({ alt: "Gold bars in a vault", width: 1000, height: 2000 });
    expect(result.asset.src).toBe(`/media/${result.asset.id}/1000x2000`);
    const files = await database.db.select().from(mediaFiles).where(eq(mediaFiles.assetId, result.asset.id));
    expect(files.map((file) => `${file.format}@${file.width}x${file.height}`).sort()).toEqual(
      ["avif@1000x2000", "avif@480x960", "avif@800x1600", "jpeg@1000x2000", "jpeg@480x960", "jpeg@800x1600", "webp@1000x2000", "webp@480x960", "webp@800x1600"].sort(),
    );
    for (const file of files) {
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format).toBe(file.format === "avif" ? "heif" : file.format);
      expect([meta.width, meta.height]).toEqual([file.width, file.height]);
      expect(meta.exif, `${file.format} ${file.width}`).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      expect(file.bytes.includes(Buffer.from("TestCam"))).toBe(false);
    }
    // Upright: the left half of the original (blue 200) is now the top.
    const top = await sharp((await getImageFile(database.db, result.asset.id, 480, "jpeg"))!).extract({ left: 200, top: 50, width: 1, height: 1 }).raw().toBuffer();
    expect(top[2]).toBeGreaterThan(150);
    expect(await getImageFile(database.db, result.asset.id, 1600, "jpeg")).toBeNull();
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.entity, `media:${result.asset.id}`));
    expect(entry).toMatchObject({ actor: "editor@example.com", action: "media.upload" });
    const listed = await listImages(database.db, 1);
    expect(listed.rows[0]).toMatchObject({ id: result.asset.id, src: result.asset.src, alt: "Gold bars in a vault", originalName: "vault.jpg" });
  }, 60_000);

  it("caps a wide image at 1600 and keeps a small one at its own width", async () => {
    const wide = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#336699" } }).png().toBuffer();
    const stored = await storeImage(database.db, { file: wide, originalName: "wide.png", alt: "A wide blue banner", actor: "e" });
    expect(stored.ok && stored.asset.src.endsWith("/1600x800")).toBe(true);
    const small = await sharp({ create: { width: 300, height: 200, channels: 4, background: "#ffcc0080" } }).webp().toBuffer();
    const result = await storeImage(database.db, { file: small, originalName: "icon.webp", alt: "A small yellow icon", actor: "e" });
    if (!result.ok) throw new Error(result.code);
    const files = await database.db.select({ format: mediaFiles.format, width: mediaFiles.width }).from(mediaFiles).where(eq(mediaFiles.assetId, result.asset.id));
    expect(files.map((file) => `${file.format}@${file.width}`).sort()).toEqual(["avif@300", "jpeg@300", "webp@300"]);
  }, 60_000);

  it("refuses a text file named .jpg, a truncated image, a missing or short alt text, and stores nothing", async () => {
    const before = (await database.db.select().from(mediaAssets)).length;
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#884422" } }).jpeg().toBuffer();
    expect(await storeImage(database.db, { file: Buffer.from("just some text, honestly\n"), originalName: "photo.jpg", alt: "Not really a photo", actor: "e" })).toEqual({ ok: false, code: "not_image" });
    expect(await storeImage(database.db, { file: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), originalName: "x.svg", alt: "A vector drawing", actor: "e" })).toEqual({ ok: false, code: "not_image" });
    expect(await storeImage(database.db, { file: jpeg.subarray(0, 300), originalName: "cut.jpg", alt: "A cut-off photo", actor: "e" })).toEqual({ ok: false, code: "not_image" });
    expect(await storeImage(database.db, { file: jpeg, originalName: "a.jpg", alt: "", actor: "e" })).toEqual({ ok: false, code: "alt_required" });
    expect(await storeImage(database.db, { file: jpeg, originalName: "a.jpg", alt: "  gold ", actor: "e" })).toEqual({ ok: false, code: "alt_required" });
    expect(await storeImage(database.db, { file: jpeg, originalName: "a.jpg", alt: "x".repeat(301), actor: "e" })).toEqual({ ok: false, code: "alt_too_long" });
    expect((await database.db.select().from(mediaAssets)).length).toBe(before);
  }, 60_000);
});
