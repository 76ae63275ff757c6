import { getEnv } from "~/http/env.server";
import { openDatabase, type DatabaseHandle } from "./client.server";
import { embeddedDatabaseDir } from "./data-dir.server";

type Holder = { handle?: Promise<DatabaseHandle>; role?: DatabaseRole };
/**
 * "server": shares the embedded database with commands over its private socket.
 * "command": reaches the embedded database through a running server's socket, or opens it.
 */
export type DatabaseRole = "server" | "command";
// One handle per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __appDatabase?: Holder }).__appDatabase ??= {});

/** Call before the first getDatabase(). */
export function setDatabaseRole(role: DatabaseRole) {
  holder.role = role;
}

/** The process's database, opened (and migrated) on first use. */
export function getDatabase(): Promise<DatabaseHandle> {
  if (!holder.handle) {
    const env = getEnv();
    holder.handle = Promise.resolve().then(() => openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : embeddedDatabaseDir(env.DATA_DIR),
      siteName: env.SITE_NAME,
      requireDurability: env.NODE_ENV === "production",
      share: holder.role === "server" ? { warn: (message) => void import("~/http/logger.server").then(({ logger }) => logger.warn(message)) } : undefined,
      viaRunningServer: holder.role === "command",
    }));
    holder.handle.catch(() => {
      holder.handle = undefined;
    });
  }
  return holder.handle;
}

export async function getDb() {
  return (await getDatabase()).db;
}

export async function closeDatabase() {
  const handle = holder.handle;
  holder.handle = undefined;
  if (handle) await (await handle).close();
}
