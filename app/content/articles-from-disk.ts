import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildArticleIndex } from "./registry";

const ARTICLES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "articles");

/** Build-time reader (react-router.config.ts); the app itself reads the same files through Vite. */
export function loadArticlesFromDisk() {
  const files = Object.fromEntries(
    readdirSync(ARTICLES_DIR)
      .filter((name) => name.endsWith(".md"))
      .map((name) => [`./articles/${name}`, readFileSync(path.join(ARTICLES_DIR, name), "utf8")]),
  );
  return buildArticleIndex(files);
}
