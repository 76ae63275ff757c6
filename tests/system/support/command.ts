import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { TEST_AUTH_SECRET } from "./site";

export type CommandResult = { code: number | null; stdout: string; stderr: string };

const ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * An operator's command on a DATA_DIR with the embedded database, as typed in the project's folder
 * (`node --import tsx scripts/…` or `npm run …`), its output kept whole.
 */
export function runCommand(command: string, args: string[], dataDir: string): Promise<CommandResult> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: "warn", DATABASE_URL: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return once(child, "exit").then(([code]) => ({ code: code as number | null, stdout, stderr }));
}
