import type { IncomingMessage } from "node:http";

/**
 * The client's address: the socket's, or with `trustedHops` proxies in front of us, the address
 * the outermost trusted proxy saw. Anything a client writes further left is ignored.
 */
export function clientIp(req: IncomingMessage, trustedHops: number) {
  const socketIp = req.socket.remoteAddress ?? "unknown";
  if (trustedHops <= 0) return socketIp;
  const header = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  // chain = [client, proxy1, ..., proxyN-1]; the socket is the last proxy.
  const hops = [...chain, socketIp];
  return hops[Math.max(0, hops.length - 1 - trustedHops)] ?? socketIp;
}
