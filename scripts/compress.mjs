import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const COMPRESSIBLE = /\.(html|js|css|svg|json|xml|txt|data|webmanifest)$/;

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** Writes file.br (quality 11) and file.gz (level 9) beside every text file worth compressing. */
export function compressDirectory(dir) {
  const started = performance.now();
  let files = 0;
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = readFileSync(file);
    if (body.length < 256) continue;
    writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
    files++;
  }
  return { files, seconds: (performance.now() - started) / 1000 };
}
