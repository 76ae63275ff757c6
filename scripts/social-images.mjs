// Social networks do not show SVG previews: render each illustration to a PNG for og:image and
// twitter:image (1200x675), into the client build. The page itself keeps the SVG.
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const SOURCE = "public/images";

function svgFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return svgFiles(full);
    return entry.name.endsWith(".svg") ? [full] : [];
  });
}

/** /images/articles/bonds-guide.svg -> /images/social/articles-bonds-guide.png (keep in step with app/lib/seo.ts). */
export function socialName(svgPath) {
  return path.relative(SOURCE, svgPath).split(path.sep).join("-").replace(/\.svg$/, ".png");
}

export async function renderSocialImages(outDir) {
  mkdirSync(outDir, { recursive: true });
  const files = svgFiles(SOURCE);
  for (const file of files) {
    await sharp(file, { density: 96 }).resize(1200, 675).png({ compressionLevel: 9, palette: true }).toFile(path.join(outDir, socialName(file)));
  }
  return files.length;
}
