import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Up to this much of a request body the app did not read (a refusal: 413, 403, 415...) is read
 * and thrown away after the answer, and the connection stays open for the client's next request.
 */
export const DRAIN_MAX_BYTES = 256 * 1024;

/**
 * The lingering close after an answer given before the body was read (RFC 9112 section 9.6;
 * decision 128). The answer is written, then the server's side of the connection is closed (FIN)
 * and what the client still sends is read and dropped until the client closes, or until:
 * - `idleMs` pass with nothing received (a client that stopped sending has read the answer by then),
 * - `maxMs` have passed since the answer (a slow or endless sender holds no socket longer),
 * - `maxBytes` of the body arrived after the answer (a fast sender that ignores the answer: 32 MiB
 *   is more than any refused upload here puts on the wire before its client has read the answer,
 *   and well past the 15.5-20 MB uploads the issue measured).
 * Closing at once instead makes the kernel answer the bytes still arriving with a reset, which
 * can erase the answer before the client has read it (Node's fetch then reports EPIPE/ECONNRESET).
 */
export const LINGER = { idleMs: 2_000, maxMs: 10_000, maxBytes: 32 * 1024 ** 2 };

export type LingerBounds = typeof LINGER;

/**
 * A request whose body the app answered without reading it leaves the rest of the body on the
 * connection, before the client's next request. Left as it is, the connection answers nothing
 * more: the client's next request on it fails (ECONNRESET), although the answer said keep-alive.
 * So when the answer starts and the body has not been read to its end:
 * - a declared body of at most DRAIN_MAX_BYTES is read to its end and dropped (the connection
 *   stays usable);
 * - anything larger, or of unknown length, gets `Connection: close`, and the connection is closed
 *   lingering (LINGER): the client receives the answer instead of a reset.
 * The request's body stream (node-fetch-server's) stops receiving: nothing reads it any more.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, bounds: LingerBounds = LINGER) {
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    res.writeHead = writeHead;
    if (!req.complete) {
      const declared = Number(req.headers["content-length"]);
      if (!(declared <= DRAIN_MAX_BYTES)) res.setHeader("Connection", "close");
      req.removeAllListeners("data");
      req.resume();
      lingerIfClosed(req, res, bounds);
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

type ClosingSocket = Socket & { destroySoon?: () => void };

/**
 * Node closes the connection of an answer that ends it (ours above, or a client's own
 * `Connection: close`) with `socket.destroySoon()` as the answer finishes (lib/_http_server.js,
 * resOnFinish): the socket is destroyed as soon as the answer is flushed. For this one answer the
 * socket's destroySoon lingers instead; it is Node's own again once the answer has finished.
 */
function lingerIfClosed(req: IncomingMessage, res: ServerResponse, bounds: LingerBounds) {
  const socket = req.socket as ClosingSocket;
  if (Object.hasOwn(socket, "destroySoon")) return;
  socket.destroySoon = () => {
    Reflect.deleteProperty(socket, "destroySoon");
    lingeringClose(socket, req, bounds);
  };
  const restore = () => {
    if (Object.hasOwn(socket, "destroySoon")) Reflect.deleteProperty(socket, "destroySoon");
  };
  res.once("finish", restore);
  res.once("close", restore);
}

/** Half-closes after the answer, reads and drops the rest of the body within `bounds`, then closes. */
export function lingeringClose(socket: Socket, req: IncomingMessage, bounds: LingerBounds) {
  let received = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(idle);
    req.off("data", count);
    // Nothing more is read: close once the answer and our FIN are on their way.
    if (socket.writableFinished) socket.destroy();
    else socket.once("finish", () => socket.destroy());
  };
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > bounds.maxBytes) stop();
    else idle.refresh();
  };
  const idle = setTimeout(stop, bounds.idleMs);
  // However the write side fares (a client that reads nothing), the socket goes at maxMs.
  const deadline = setTimeout(() => socket.destroy(), bounds.maxMs);
  socket.once("close", () => {
    clearTimeout(idle);
    clearTimeout(deadline);
    req.off("data", count);
  });
  if (req.complete) stop();
  else {
    req.on("data", count);
    // The whole body has arrived: nothing more to wait for.
    req.once("end", stop);
  }
  socket.end();
}
