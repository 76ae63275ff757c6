import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The browser's build holds nothing of Node's. A shared module that imported a Node-only package
 * (csv-parse, which calls Buffer at load) once put `Buffer.from` in the analytics page's chunk: the
 * page threw before hydrating and none of its controls worked. The type checker cannot see this
 * (the types include Node's for the server), so the built chunks are read.
 */
const ASSETS = path.resolve("build/client/assets");

describe("the browser build", () => {
  const chunks = readdirSync(ASSETS).filter((name) => name.endsWith(".js"));

  it("has chunks to read", () => {
    expect(chunks.length).toBeGreaterThan(10);
  });

  it("uses none of Node's globals or modules", () => {
    const found = chunks.flatMap((name) => {
      const code = readFileSync(path.join(ASSETS, name), "utf8");
      return [/\bBuffer\.(from|alloc|concat|isBuffer|byteLength)\b/, /\b__dirname\b/, /["'`]node:[a-z_/]+["'`]/, /\brequire\(["'`]/].flatMap((pattern) => {
        const match = pattern.exec(code);
        return match ? [`${name}: …${code.slice(Math.max(0, match.index - 60), match.index + 40)}…`] : [];
      });
    });
    expect(found).toEqual([]);
  });
});
