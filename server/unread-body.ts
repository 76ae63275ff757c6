import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Up to this much of a request body the app did not read (a refusal: 413, 403, 415...) is read
 * and thrown away after the answer, and the connection stays open for the client's next request.
 */
export const DRAIN_MAX_BYTES = 256 * 1024;

/**
 * A request whose body the app answered without reading it leaves the rest of the body on the
 * connection, before the client's next request. Left as it is, the connection answers nothing
 * more: the client's next request on it fails (ECONNRESET), although the answer said keep-alive.
 * So when the answer starts and the body has not been read to its end:
 * - a declared body of at most DRAIN_MAX_BYTES is read to its end and dropped (the connection
 *   stays usable);
 * - anything larger, or of unknown length, gets `Connection: close`; what still arrives is read
 *   and dropped until the connection closes after the answer, so the client receives the answer
 *   instead of a reset.
 * The request's body stream (node-fetch-server's) stops receiving: nothing reads it any more.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse) {
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
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
