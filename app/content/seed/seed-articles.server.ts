import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The six articles the site started with, as Markdown with frontmatter. They are read only by the
 * first-start import (app/services/content/import.server.ts); the database is the source after it.
 * Bundled by Vite (server build, tests); commands run by tsx read the same files from disk.
 */
export function seedArticleFiles(): Record<string, string> {
  try {
    return import.meta.glob<string>("./articles/*.md", { query: "?raw", import: "default", eager: true });
  } catch {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "articles");
    return Object.fromEntries(
      readdirSync(dir)
        .filter((name) => name.endsWith(".md"))
        .map((name) => [`./articles/${name}`, readFileSync(path.join(dir, name), "utf8")]),
    );
  }
}
