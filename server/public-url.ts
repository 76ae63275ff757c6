import type { IncomingMessage } from "node:http";

/** Scheme and host of a request as the visitor's browser addressed it. */
export type PublicOrigin = { protocol: "http:" | "https:"; host: string };

/** What the server knows about its own address: SITE_URL, and how many proxy hops it trusts. */
export type PublicUrlSettings = { siteUrl: string; trustedHops: number };

// A host as a browser sends it: a name or IPv4 address, or a bracketed IPv6 address, with an
// optional port. Anything else in a header (spaces, paths, `@`, quotes) is ignored, not guessed at.
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/i;

function validHost(value: string | undefined) {
  const host = value?.trim().toLowerCase();
  return host && HOST.test(host) ? host : undefined;
}

function validProtocol(value: string | undefined) {
  const protocol = value?.trim().toLowerCase().replace(/:$/, "");
  return protocol === "https" ? "https:" : protocol === "http" ? "http:" : undefined;
}

function headerText(value: string | string[] | undefined) {
  return Array.isArray(value) ? value.join(",") : value;
}

/** A list header's values, each hop's on its own (`a, b` and repeated headers alike). */
function listValues(value: string | string[] | undefined) {
  const text = headerText(value);
  return text === undefined ? [] : text.split(",").map((part) => part.trim());
}

/**
 * The entries the trusted proxies wrote. Each proxy appends its own, so with N trusted hops the
 * last N entries are theirs; entries further left were written by the client and mean nothing.
 */
function trustedEntries<T>(entries: T[], trustedHops: number): T[] {
  return entries.slice(Math.max(0, entries.length - trustedHops));
}

/** What the outermost trusted proxy that says anything about it says (it saw the visitor's request). */
function outermost<T, V extends string>(entries: T[], read: (entry: T) => string | undefined, valid: (value: string | undefined) => V | undefined) {
  for (const entry of entries) {
    const value = valid(read(entry));
    if (value) return value;
  }
  return undefined;
}

/** RFC 7239 `Forwarded`: one element per hop, `;`-separated pairs, values optionally quoted. */
export function parseForwarded(value: string | string[] | undefined): Array<Record<string, string>> {
  const text = headerText(value);
  if (!text) return [];
  const elements: Array<Record<string, string>> = [];
  // Commas and semicolons inside quoted strings belong to the value (e.g. `host="a.example:443"`).
  for (const element of text.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    const pairs: Record<string, string> = {};
    for (const pair of element.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
      const index = pair.indexOf("=");
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim().toLowerCase();
      let content = pair.slice(index + 1).trim();
      if (content.startsWith('"') && content.endsWith('"') && content.length >= 2) content = content.slice(1, -1).replace(/\\(.)/g, "$1");
      pairs[name] = content;
    }
    elements.push(pairs);
  }
  return elements;
}

/**
 * The public scheme and host of this request, the one notion every part of the server uses
 * (decision 058): the router's request URL, the cross-site guard, redirects, cookies, the host rule.
 *
 * - Behind `trustedHops` proxies, the trusted proxies' `Forwarded` elements (RFC 7239), or else
 *   their `X-Forwarded-Proto` / `X-Forwarded-Host` entries, give the scheme and host: the
 *   outermost trusted proxy that states one, since it saw the visitor's request.
 * - Otherwise (and for whatever the proxies did not say) the host is the `Host` header, and the
 *   scheme is the socket's (TLS here), or SITE_URL's when the request names SITE_URL's host: a
 *   proxy in front that was not declared still yields https links for the site's own name.
 * - Untrusted forwarded headers change nothing.
 */
export function publicOrigin(req: IncomingMessage, settings: PublicUrlSettings, site = siteOrigin(settings.siteUrl)): PublicOrigin {
  let protocol: PublicOrigin["protocol"] | undefined;
  let host: string | undefined;
  if (settings.trustedHops > 0) {
    const forwarded = trustedEntries(parseForwarded(req.headers.forwarded), settings.trustedHops);
    if (forwarded.length > 0) {
      protocol = outermost(forwarded, (element) => element.proto, validProtocol);
      host = outermost(forwarded, (element) => element.host, validHost);
    } else {
      const same = (value: string | undefined) => value;
      protocol = outermost(trustedEntries(listValues(req.headers["x-forwarded-proto"]), settings.trustedHops), same, validProtocol);
      host = outermost(trustedEntries(listValues(req.headers["x-forwarded-host"]), settings.trustedHops), same, validHost);
    }
  }
  host ??= validHost(req.headers.host) ?? site.host;
  protocol ??= "encrypted" in req.socket && req.socket.encrypted ? "https:" : hostName(host) === hostName(site.host) ? site.protocol : "http:";
  return { protocol, host };
}

function hostName(host: string) {
  return host.replace(/:[0-9]+$/, "");
}

const siteOrigins = new Map<string, PublicOrigin>();

/** SITE_URL's scheme and host (parsed once per value: this runs on every request). */
export function siteOrigin(siteUrl: string): PublicOrigin {
  let origin = siteOrigins.get(siteUrl);
  if (!origin) {
    const url = new URL(siteUrl);
    origin = { protocol: url.protocol === "https:" ? "https:" : "http:", host: url.host.toLowerCase() };
    siteOrigins.set(siteUrl, origin);
  }
  return origin;
}

export function originText(origin: PublicOrigin) {
  return `${origin.protocol}//${origin.host}`;
}

/**
 * Writes the public origin into the request's headers, so that everything downstream (the React
 * Router request URL, better-auth, the host rule, the evidence kept with a consent) reads the one
 * answer and no component interprets forwarded headers on its own. The caller removes `Forwarded`
 * once the client address is read from it (what it said is then in these headers).
 */
export function applyPublicOrigin(req: IncomingMessage, origin: PublicOrigin) {
  req.headers.host = origin.host;
  req.headers["x-forwarded-host"] = origin.host;
  req.headers["x-forwarded-proto"] = origin.protocol.slice(0, -1);
}
