import type { Readable } from "node:stream";
import Assembler from "stream-json/Assembler";
import Parser from "stream-json/Parser";

/**
 * A Ghost export (Settings → Labs → Export, one JSON file) read as a stream: each row of the
 * tables the import needs is handed over on its own, so the memory held is one row and one chunk
 * of the file, whatever the export's size (decision 158). Ghost writes `{"db":[{"meta":…,
 * "data":{"posts":[…],"tags":[…],…}}]}`.
 */

export const GHOST_TABLES = ["posts", "posts_authors", "posts_meta", "posts_tags", "settings", "tags", "users"] as const;
export type GhostTable = (typeof GHOST_TABLES)[number];
export type GhostRow = { table: GhostTable; row: Record<string, unknown> };

export class GhostError extends Error {}

type Token = { name: string; value?: string };

/** The rows of GHOST_TABLES in file order; throws GhostError on a file that is not a Ghost export. */
export async function* readGhost(input: Readable): AsyncGenerator<GhostRow> {
  const tokens = input.pipe(Parser.parser({ packKeys: true, streamKeys: false, packValues: true, streamValues: false }));
  // pipe() does not pass the file's own errors on (a file that cannot be read).
  input.on("error", (error) => tokens.destroy(error));
  // The path to the value being read: keys of objects, and the count of values read of arrays.
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let assembler: Assembler | null = null;
  let table: GhostTable | null = null;
  let sawData = false;
  const ready: GhostRow[] = [];

  const wanted = () => path.length === 5 && path[0] === "db" && path[1] === 0 && path[2] === "data" && (GHOST_TABLES as readonly string[]).includes(String(path[3]));
  /** A value ended at this depth: in an array the next one has the next index. */
  const valueEnded = () => {
    if (inArray.at(-1)) path[path.length - 1] = (path.at(-1) as number) + 1;
  };

  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      if (assembler) {
        assembler.consume(token);
        if (assembler.done) {
          ready.push({ table: table!, row: assembler.current as Record<string, unknown> });
          assembler = null;
          valueEnded();
        }
        if (ready.length > 0) yield* ready.splice(0, ready.length);
        continue;
      }
      switch (token.name) {
        case "startObject":
        case "startArray":
          if (token.name === "startObject" && wanted()) {
            table = path[3] as GhostTable;
            assembler = new Assembler();
            assembler.consume(token);
            break;
          }
          if (path.length === 3 && path[2] === "data" && path[0] === "db") sawData = true;
          inArray.push(token.name === "startArray");
          path.push(token.name === "startArray" ? 0 : "");
          break;
        case "endObject":
        case "endArray":
          inArray.pop();
          path.pop();
          valueEnded();
          break;
        case "keyValue":
          path[path.length - 1] = String(token.value);
          break;
        case "stringValue":
        case "numberValue":
        case "nullValue":
        case "trueValue":
        case "falseValue":
          valueEnded();
          break;
        default:
          break;
      }
    }
  } catch (error) {
    throw new GhostError(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (!sawData) throw new GhostError("This is not a Ghost export: it has no db[0].data (Ghost writes its tables there in every export from Settings → Labs).");
}
