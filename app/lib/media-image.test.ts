import { describe, expect, it } from "vitest";
import { heightAt, largestWidth, mediaSrcset, parseMediaFilePath, parseMediaReference, pictureModel, srcsetWidths } from "./media-image";

const ID = "0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f";

describe("media references", () => {
  it("parses /media/<uuid>/<W>x<H> and nothing else", () => {
    expect(parseMediaReference(`/media/${ID}/1600x900`)).toEqual({ id: ID, width: 1600, height: 900 });
    for (const bad of [
      `/media/${ID}/1601x900`,
      `/media/${ID}/0x900`,
      `/media/${ID}/1600x`,
      `/media/${ID.toUpperCase()}/800x600`,
      `/media/not-a-uuid/800x600`,
      `/media/${ID}/800x600?x=1`,
      `https://evil.example/media/${ID}/800x600`,
      `/images/gold-bars.jpg`,
      `/media/${ID}/800.jpg`,
    ]) {
      expect(parseMediaReference(bad), bad).toBeNull();
    }
  });

  it("parses file paths with the three extensions", () => {
    expect(parseMediaFilePath(`/media/${ID}/480.avif`)).toEqual({ id: ID, width: 480, format: "avif" });
    expect(parseMediaFilePath(`/media/${ID}/800.webp`)).toEqual({ id: ID, width: 800, format: "webp" });
    expect(parseMediaFilePath(`/media/${ID}/1200.jpg`)).toEqual({ id: ID, width: 1200, format: "jpeg" });
    expect(parseMediaFilePath(`/media/${ID}/1200.jpeg`)).toBeNull();
    expect(parseMediaFilePath(`/media/${ID}/1200.png`)).toBeNull();
    expect(parseMediaFilePath(`/media/${ID}/../1200.jpg`)).toBeNull();
  });

  it("never upscales: widths below the largest, plus the largest", () => {
    expect(largestWidth(4000)).toBe(1600);
    expect(largestWidth(1000)).toBe(1000);
    expect(srcsetWidths(1600)).toEqual([480, 800, 1200, 1600]);
    expect(srcsetWidths(1000)).toEqual([480, 800, 1000]);
    expect(srcsetWidths(800)).toEqual([480, 800]);
    expect(srcsetWidths(300)).toEqual([300]);
    expect(heightAt({ width: 1600, height: 900 }, 480)).toBe(270);
  });

  it("describes a <picture> for uploads and a plain image for site paths", () => {
    expect(mediaSrcset({ id: ID, width: 800, height: 600 }, "webp")).toBe(`/media/${ID}/480.webp 480w, /media/${ID}/800.webp 800w`);
    const model = pictureModel(`/media/${ID}/800x600`);
    expect(model.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    expect(model.img).toEqual({ src: `/media/${ID}/800.jpg`, srcSet: `/media/${ID}/480.jpg 480w, /media/${ID}/800.jpg 800w`, width: 800, height: 600 });
    expect(pictureModel("/images/gold.jpg")).toEqual({ sources: [], img: { src: "/images/gold.jpg" } });
  });
});
