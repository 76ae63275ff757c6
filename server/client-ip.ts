import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { parseForwarded } from "./public-url";

/** A `Forwarded: for=` node (RFC 7239 6): `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`. */
function forwardedNode(value: string | undefined) {
  if (!value) return "unknown";
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const withPort = /^([0-9.]+):\d+$/.exec(value);
  return withPort ? withPort[1]! : value;
}

/** The hops in front of us as the proxies wrote them, nearest last (without the socket). */
function forwardedChain(req: IncomingMessage) {
  const forwarded = parseForwarded(req.headers.forwarded);
  if (forwarded.length > 0) return forwarded.map((element) => forwardedNode(element.for));
  const header = req.headers["x-forwarded-for"];
  return (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The client's address: the socket's, or with `trustedHops` proxies in front of us, the address
 * the outermost trusted proxy saw (from `Forwarded`, else `X-Forwarded-For`). Anything a client
 * writes further left is ignored, and so is an entry that is not an IP address.
 */
export function clientIp(req: IncomingMessage, trustedHops: number) {
  const socketIp = req.socket.remoteAddress ?? "unknown";
  if (trustedHops <= 0) return socketIp;
  // chain = [client, proxy1, ..., proxyN-1]; the socket is the last proxy.
  const hops = [...forwardedChain(req), socketIp];
  const address = hops[Math.max(0, hops.length - 1 - trustedHops)] ?? socketIp;
  return isIP(address) ? address : socketIp;
}
