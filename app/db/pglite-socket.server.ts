import { chmodSync, existsSync, lstatSync, mkdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";

/**
 * The running server shares its embedded database with the app's own commands (admin:create,
 * dnc:import, db:export, db:migrate, …) over a Unix socket that only the owner of DATA_DIR can
 * reach. The commands speak the PostgreSQL protocol to it with `pg`. See
 * docs/decisions/025-commands-beside-a-running-site.md.
 *
 * PGlite is ONE database session. The app's queries take PGlite's transaction lock; a command's
 * messages must too, and must keep it from the first message of a command until PostgreSQL says
 * the session is idle again (ReadyForQuery "I"), or an app query would land inside the command's
 * transaction (or between its Parse and Execute), and the other way round.
 */

/** pg connects to `<host>/.s.PGSQL.<port>` when host is a folder. */
export const SOCKET_PORT = 5432;
const SOCKET_NAME = `.s.PGSQL.${SOCKET_PORT}`;
// sun_path holds 108 bytes on Linux, 104 on macOS.
const MAX_SOCKET_PATH = 100;

/** The private folder beside the data folder: `DATA_DIR/pglite` → `DATA_DIR/pglite.socket/`. */
export function socketDirFor(dataDir: string) {
  return `${path.resolve(dataDir)}.socket`;
}

export function socketPathFor(dataDir: string) {
  return path.join(socketDirFor(dataDir), SOCKET_NAME);
}

/** The socket of a running server, if there is one we may use. */
export function findServerSocket(dataDir: string): string | null {
  const file = socketPathFor(dataDir);
  try {
    return lstatSync(file).isSocket() ? socketDirFor(dataDir) : null;
  } catch {
    return null;
  }
}

type QueueEntry = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

// ReadyForQuery: 'Z', length 5, status byte ('I' idle, 'T' in a transaction, 'E' failed one).
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

function simpleQuery(text: string) {
  const body = Buffer.from(`${text}\0`, "utf8");
  const message = Buffer.alloc(5 + body.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

/**
 * Runs the socket clients' messages one at a time, holding PGlite's transaction lock while one
 * client's command is open. Stands in for the package's own queue (same three methods), which
 * only orders its sockets among themselves and not against the app's queries.
 */
class SessionQueue {
  private queue: QueueEntry[] = [];
  private running = false;
  /** The client that holds the session, and the function that gives it back. */
  private owner: { handlerId: number; release: () => void } | null = null;

  constructor(private readonly client: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  private acquire() {
    return new Promise<() => void>((acquired) => {
      void this.client._runExclusiveTransaction(() => new Promise<void>((release) => acquired(release)));
    });
  }

  private async drain() {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        // While a client holds the session only its own messages may run.
        const index = this.owner ? this.queue.findIndex((entry) => entry.handlerId === this.owner!.handlerId) : 0;
        if (index === -1 || this.queue.length === 0) break;
        const entry = this.queue.splice(index, 1)[0]!;
        if (!this.owner) this.owner = { handlerId: entry.handlerId, release: await this.acquire() };
        try {
          const { bytes, idle } = await this.execute(entry.message, entry.onData);
          if (idle) this.giveBack();
          entry.resolve(bytes);
        } catch (error) {
          this.giveBack();
          entry.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async execute(message: Uint8Array, onData: (data: Uint8Array) => void) {
    let bytes = 0;
    let tail = new Uint8Array(0);
    await this.client.runExclusive(() =>
      this.client.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          tail = data.length >= 6 ? data.slice(-6) : Uint8Array.from([...tail, ...data].slice(-6));
          onData(data);
        },
      }),
    );
    const idle = tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[5] === IDLE;
    return { bytes, idle };
  }

  private giveBack() {
    const owner = this.owner;
    this.owner = null;
    owner?.release();
  }

  clearQueueForHandler(handlerId: number) {
    this.queue = this.queue.filter((entry) => {
      if (entry.handlerId !== handlerId) return true;
      entry.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A client that went away in the middle of a command: end its statement, undo its transaction. */
  async clearTransactionIfNeeded(handlerId: number) {
    if (this.owner?.handlerId !== handlerId) return;
    // Wait for a message of this client still running.
    while (this.running) await new Promise((resolve) => setImmediate(resolve));
    if (this.owner?.handlerId !== handlerId) return;
    try {
      await this.execute(SYNC, () => {});
      if (this.client.isInTransaction()) await this.execute(simpleQuery("ROLLBACK"), () => {});
    } catch {
      // The database is closing (server shutdown): nothing left to undo or to hand back to.
    } finally {
      this.giveBack();
      void this.drain();
    }
  }
}

export type SharedSocket = { path: string; close: () => Promise<void> };

/**
 * Listens on the database's private socket. Returns null (and says why through `warn`) when the
 * path is too long for a Unix socket: the site still runs, the commands then say to stop it.
 */
export async function shareOverSocket(client: PGlite, dataDir: string, warn: (message: string) => void): Promise<SharedSocket | null> {
  const dir = socketDirFor(dataDir);
  const file = socketPathFor(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    warn(`The database socket path ${file} is too long for a Unix socket; commands cannot run beside this server (use a shorter DATA_DIR).`);
    return null;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.getuid && statSync(dir).uid !== process.getuid()) {
    warn(`${dir} belongs to another user; commands cannot run beside this server.`);
    return null;
  }
  chmodSync(dir, 0o700);
  // We hold the data folder's lock, so a socket file left here is a crashed server's.
  if (existsSync(file)) rmSync(file, { force: true });

  const queue = new SessionQueue(client);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions["queryQueue"],
      closeOnDetach: true,
    });
    handler.attach(socket).catch(() => socket.destroy());
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // The umask decides the socket's mode when it is bound (inside listen()): owner-only from the
  // first moment, and the folder is owner-only as well.
  const umask = process.umask(0o177);
  try {
    server.listen(file);
  } finally {
    process.umask(umask);
  }
  await listening;
  chmodSync(file, 0o600);
  server.on("error", (error) => warn(`database socket: ${error.message}`));

  let closed = false;
  return {
    path: file,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(file, { force: true });
    },
  };
}
