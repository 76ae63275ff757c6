import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { freePort } from "./site";

const execFileAsync = promisify(execFile);

function binDir() {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql.");
  return path.join(root, newest, "bin");
}

/**
 * A PostgreSQL server of our own (initdb in a temporary folder, its own port), so a test can stop
 * and start it without touching the machine's shared server. As root, the server runs as the
 * `postgres` user (PostgreSQL refuses to run as root).
 */
export async function startPrivatePostgres() {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), "private-pg-"));
  const data = path.join(dir, "data");
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    return asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" })
      : execFileSync(command, args, { stdio: "pipe" });
  };
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  /**
   * Stop and start while traffic runs go through here: a synchronous wait would freeze the test's
   * own HTTP client, which then reuses a keep-alive socket the site closed meanwhile (undici's
   * "other side closed"), a fault of the test and not of the site.
   */
  const runAsync = async (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    await (asRoot ? execFileAsync("runuser", ["-u", "postgres", "--", command, ...args]) : execFileAsync(command, args));
  };
  const startArgs = ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"];
  run("pg_ctl", startArgs);
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => runAsync("pg_ctl", startArgs),
    /** "fast" ends every session (SQLSTATE 57P01); new connections are refused until start(). */
    stop: () => runAsync("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    remove: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
