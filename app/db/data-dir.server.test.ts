import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedDatabaseDir, NotADataDirError } from "./data-dir.server";

describe("the embedded database's folder of a DATA_DIR", () => {
  const base = () => mkdtempSync(path.join(tmpdir(), "data-dir-"));

  it("is DATA_DIR/pglite for a data folder, made or not yet made, and memory for memory", () => {
    const dataDir = path.join(base(), "data");
    expect(embeddedDatabaseDir(dataDir)).toBe(path.join(dataDir, "pglite"));
    mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "17\n");
    expect(embeddedDatabaseDir(dataDir)).toBe(path.join(dataDir, "pglite"));
    expect(embeddedDatabaseDir("memory")).toBe("memory");
  });

  it("refuses the inner pglite folder, naming the data folder to give instead", () => {
    const dataDir = path.join(base(), "data");
    mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "17\n");
    const inner = path.join(dataDir, "pglite");
    expect(() => embeddedDatabaseDir(inner)).toThrow(NotADataDirError);
    expect(() => embeddedDatabaseDir(inner)).toThrow(`${inner} is the embedded database's own folder, inside a data folder: give the data folder, ${dataDir}`);
    // Not made yet: the name alone says it is the inner folder.
    const fresh = path.join(base(), "new-data", "pglite");
    expect(() => embeddedDatabaseDir(fresh)).toThrow(`give the data folder, ${path.dirname(fresh)}`);
  });

  it("refuses a data folder that is itself a database (where an earlier import put it), and says where the server reads", () => {
    const dataDir = path.join(base(), "data");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, "PG_VERSION"), "17\n");
    expect(() => embeddedDatabaseDir(dataDir)).toThrow(`${dataDir} holds a database of its own, where the server does not look (it reads ${path.join(dataDir, "pglite")})`);
  });

  it("accepts a data folder that happens to be named pglite when its database is inside it", () => {
    const dataDir = path.join(base(), "pglite");
    mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    expect(embeddedDatabaseDir(dataDir)).toBe(path.join(dataDir, "pglite"));
  });
});
