import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { keptCompressed, staticFileFromBody, type StaticFile } from "./static-files";

const gunzip = promisify(zlib.gunzip);

/**
 * The article and author pages of a large archive (issue 26, decision 075): rendered on their first
 * request, kept compressed only (brotli and gzip, decision 137) in memory up to a byte budget
 * (least recently used out first) and on disk under DATA_DIR/pages, where they survive a restart. Each entry carries the digest of what
 * the page showed (`dependsOn`, as in server/live-pages.ts): a change drops the entries whose
 * digest moved, and a file on disk is found only under the digest of the current content.
 */

export type PageToRender = { key: string; url: string; dependsOn: string };

/** `checkedFor`: the content version (the published snapshot) its digest was last found current for. */
type Entry = { file: StaticFile; dependsOn: string; bytes: number; checkedFor: unknown };

type Rendered = { body: Buffer; contentType: string; gzip?: Buffer; brotli?: Buffer };

export type PageStoreOptions = {
  /** Bytes of the pages kept in memory: gzip + brotli (the body only for a page too small to compress). */
  budgetBytes: number;
  /** Folder of the disk copies; none: memory only. */
  dir?: string;
  /** Folds into every file name: what else the bytes depend on (the build, the host). */
  salt: string;
  /** Renders and compresses one page; null when it is not a 200 (the router answers it). */
  render: (page: PageToRender) => Promise<Rendered | null>;
  onError?: (error: unknown) => void;
  /** Each page loaded into memory: read from disk or rendered, and how long it took. */
  onLoaded?: (event: { key: string; from: "disk" | "render"; ms: number }) => void;
};

/** What a kept file holds: a file with a gzip twin holds no body (keptCompressed). */
const sizeOf = (file: StaticFile) => (file.gzip ? 0 : file.body.length) + (file.gzip?.length ?? 0) + (file.brotli?.length ?? 0);

export function createPageStore(options: PageStoreOptions) {
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  const memory = new Map<string, Entry>();
  /** The key at the end of `memory` (the most recently used), if known. */
  let lastUsed: string | undefined;
  const inFlight = new Map<string, Promise<StaticFile | null>>();
  let bytes = 0;
  const stats = { hits: 0, misses: 0, diskHits: 0, renders: 0, evictions: 0 };

  const remove = (key: string) => {
    const entry = memory.get(key);
    if (!entry) return;
    memory.delete(key);
    if (key === lastUsed) lastUsed = undefined;
    bytes -= entry.bytes;
  };
  const keep = (key: string, file: StaticFile, dependsOn: string, checkedFor: unknown) => {
    remove(key);
    const size = sizeOf(file);
    if (size > options.budgetBytes) return;
    memory.set(key, { file, dependsOn, bytes: size, checkedFor });
    lastUsed = key;
    bytes += size;
    while (bytes > options.budgetBytes) {
      const oldest = memory.keys().next().value as string;
      remove(oldest);
      stats.evictions++;
    }
  };

  const fileName = (page: PageToRender) => createHash("sha256").update(`${options.salt}\0${page.key}\0${page.dependsOn}`).digest("base64url");

  async function fromDisk(page: PageToRender): Promise<StaticFile | null> {
    if (!options.dir) return null;
    const base = path.join(options.dir, fileName(page));
    try {
      const meta = JSON.parse(await readFile(`${base}.json`, "utf8")) as { contentType: string; gzip: boolean; brotli: boolean };
      // A page with a gzip twin has no body file: it is unzipped once here, for its ETag and policy.
      const [gzip, brotli] = await Promise.all([meta.gzip ? readFile(`${base}.gz`) : undefined, meta.brotli ? readFile(`${base}.br`) : undefined]);
      const body = gzip ? await gunzip(gzip) : await readFile(`${base}.body`);
      // Used: its meta file's time moves, so pruning (below) keeps it.
      const now = new Date();
      await utimes(`${base}.json`, now, now).catch(() => undefined);
      return keptCompressed(staticFileFromBody(body, page.key, { contentType: meta.contentType, gzip, brotli }));
    } catch {
      return null;
    }
  }

  /** Written beside, then renamed: another process (same DATA_DIR) reads a whole file or none. The meta file last. */
  async function toDisk(page: PageToRender, rendered: Rendered) {
    if (!options.dir) return;
    const base = path.join(options.dir, fileName(page));
    const temp = `.${process.pid}-${Math.random().toString(36).slice(2)}`;
    const write = async (suffix: string, data: Buffer | string) => {
      await writeFile(`${base}${suffix}${temp}`, data);
      await rename(`${base}${suffix}${temp}`, `${base}${suffix}`);
    };
    await mkdir(options.dir, { recursive: true });
    if (!rendered.gzip) await write(".body", rendered.body);
    if (rendered.gzip) await write(".gz", rendered.gzip);
    if (rendered.brotli) await write(".br", rendered.brotli);
    await write(".json", JSON.stringify({ contentType: rendered.contentType, gzip: Boolean(rendered.gzip), brotli: Boolean(rendered.brotli) }));
  }

  async function load(page: PageToRender, version: unknown, currentVersion: () => unknown): Promise<StaticFile | null> {
    const stillCurrent = () => currentVersion() === version;
    const started = performance.now();
    const disk = await fromDisk(page);
    if (disk) {
      stats.diskHits++;
      options.onLoaded?.({ key: page.key, from: "disk", ms: Math.round(performance.now() - started) });
      if (stillCurrent()) keep(page.key, disk, page.dependsOn, version);
      return disk;
    }
    stats.renders++;
    const rendered = await options.render(page);
    if (!rendered) return null;
    const file = keptCompressed(staticFileFromBody(rendered.body, page.key, rendered));
    options.onLoaded?.({ key: page.key, from: "render", ms: Math.round(performance.now() - started) });
    // Rendered while the content changed: right for this request, not to be kept.
    if (!stillCurrent()) return file;
    keep(page.key, file, page.dependsOn, version);
    await toDisk(page, rendered).catch((error: unknown) => options.onError?.(error));
    return file;
  }

  return {
    /**
     * The page from memory, if kept and still what the content shows (marks it recently used).
     * After a change (`version` moved) the entry's digest is compared once with `digestNow()`:
     * the page is gone (undefined) or changed, and the entry is dropped; otherwise it stays. So a
     * change costs nothing up front, and each kept page one digest on its next request.
     */
    peek(key: string, version: unknown, digestNow: () => string | undefined): StaticFile | undefined {
      const entry = memory.get(key);
      if (!entry) return undefined;
      if (entry.checkedFor !== version) {
        if (digestNow() !== entry.dependsOn) {
          remove(key);
          return undefined;
        }
        entry.checkedFor = version;
      }
      // Least recently used out first: a hit moves the page to the end, unless it is there already
      // (a hot page asked again and again then costs no Map writes).
      if (key !== lastUsed) {
        memory.delete(key);
        memory.set(key, entry);
        lastUsed = key;
      }
      stats.hits++;
      return entry.file;
    },
    /** From disk, else rendered (and kept in both); one load per key at a time. */
    get(page: PageToRender, version: unknown, currentVersion: () => unknown): Promise<StaticFile | null> {
      stats.misses++;
      const running = inFlight.get(page.key);
      if (running) return running;
      const loading = load(page, version, currentVersion).finally(() => inFlight.delete(page.key));
      inFlight.set(page.key, loading);
      return loading;
    },
    stats: () => ({ ...stats, pages: memory.size, bytes }),
    /**
     * Removes the disk copies not written or read for `maxAgeMs`: pages of earlier builds and hosts
     * (another salt), earlier versions of edited pages (another digest), pages nobody asked for,
     * and pieces a killed process left. A page kept in memory keeps its files. A page removed
     * that is asked for again is rendered again: the folder stays bounded by what is read.
     * Answers how many pages' files were removed.
     */
    async prune(maxAgeMs: number, now = Date.now()) {
      if (!options.dir) return 0;
      let names: string[];
      try {
        names = await readdir(options.dir);
      } catch {
        return 0;
      }
      const inMemory = new Set([...memory].map(([key, entry]) => fileName({ key, url: "", dependsOn: entry.dependsOn })));
      const byPage = new Map<string, string[]>();
      for (const name of names) {
        const base = name.split(".")[0]!;
        if (!inMemory.has(base)) byPage.set(base, [...(byPage.get(base) ?? []), name]);
      }
      let removed = 0;
      for (const [base, files] of byPage) {
        // A page's age is its meta file's (written last, touched on every read); pieces without
        // one (a write cut off) go by their own age.
        const meta = files.includes(`${base}.json`) ? `${base}.json` : files[0]!;
        const age = await stat(path.join(options.dir, meta)).then((info) => now - info.mtimeMs, () => 0);
        if (age < maxAgeMs) continue;
        await Promise.all(files.map((name) => unlink(path.join(options.dir!, name)).catch(() => undefined)));
        removed++;
      }
      return removed;
    },
  };
}

export type PageStore = ReturnType<typeof createPageStore>;
