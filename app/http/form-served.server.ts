import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { hasSessionCookie } from "~/auth/session-cookie";
import { consentSigningSecret } from "~/services/consent/signing.server";
import { getEnv, type Env } from "./env.server";

/**
 * When the server showed a page with a consent form (decision 080). The page itself is the same
 * bytes for everybody (answered from memory) and sets no cookie (public pages stay cacheable), so
 * each form loads an image (FORM_SEEN_PATH) whose answer sets this signed cookie; it comes back
 * with the form: the server's own time of the showing, with or without JavaScript, that neither
 * the person nor a lead seller can set. The newsletter's confirmation page, rendered per request,
 * sets it with the page itself.
 */
export const FORM_SERVED_COOKIE = "form_served";

/** A form kept open longer than a day is still a form, but its cookie is gone and no time is claimed. */
const MAX_AGE_SECONDS = 86_400;
/** Processes behind one proxy may disagree by a little. */
const CLOCK_SKEW_MS = 2_000;
const SIGNATURE_CHARS = 22; // 128 bits of HMAC-SHA-256, base64url

/**
 * What a valid cookie says: when the form was shown and on which page: for a page answered from
 * memory its document's ETag, for a page kept as rendered (keepsRenderedPage) its SHA-256.
 */
export type FormServed = { at: Date; documentEtag: string | null; renderedSha256: string | null };

/** A SHA-256 in the cookie: base64url, 43 characters (an ETag's digest has 22). */
const SHA256_TAG_CHARS = 43;

/** The cookie's tag for a rendered page kept by its SHA-256 (hex). */
export function renderedPageTag(sha256Hex: string) {
  return Buffer.from(sha256Hex, "hex").toString("base64url");
}

export type FormServedCookies = {
  /**
   * The Set-Cookie value for a form shown now; `etag`: the ETag of the document its page was
   * answered from (server/static-files.ts), or a rendered page's tag (renderedPageTag), so the
   * record keeps the very page.
   */
  setCookie: (etag?: string, now?: number) => string;
  /** What a valid cookie in this Cookie header says, or null. */
  read: (cookieHeader: string | null | undefined, now?: number) => FormServed | null;
  /** Only the time. */
  servedAt: (cookieHeader: string | null | undefined, now?: number) => Date | null;
};

export function formServedCookies(secret: string, secure: boolean): FormServedCookies {
  const key = Buffer.from(hkdfSync("sha256", secret, "patriot-investor", "form-served-cookie-v1", 32));
  const sign = (ms: number, tag: string) => createHmac("sha256", key).update(`form-served-v1\n${ms}\n${tag}`).digest("base64url").slice(0, SIGNATURE_CHARS);
  const attributes = `; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  // One signature per millisecond and document at most, however many forms are shown at once.
  let last = { ms: -1, tag: "", header: "" };
  const read = (cookieHeader: string | null | undefined, now = Date.now()): FormServed | null => {
    const value = cookieValue(cookieHeader, FORM_SERVED_COOKIE);
    const match = value && /^(\d{13})\.([\w-]{0,64})\.([\w-]{22})$/.exec(value);
    if (!match) return null;
    const ms = Number(match[1]);
    if (ms > now + CLOCK_SKEW_MS || now - ms > MAX_AGE_SECONDS * 1000) return null;
    const tag = match[2]!;
    if (!timingSafeEqual(Buffer.from(sign(ms, tag)), Buffer.from(match[3]!))) return null;
    const rendered = tag.length === SHA256_TAG_CHARS;
    return { at: new Date(ms), documentEtag: tag && !rendered ? `"${tag}"` : null, renderedSha256: rendered ? Buffer.from(tag, "base64url").toString("hex") : null };
  };
  return {
    setCookie(etag = "", now = Date.now()) {
      // An ETag is a quoted base64url digest: the quotes are not cookie-safe and carry nothing.
      const tag = etag.replace(/^"|"$/g, "");
      if (last.ms !== now || last.tag !== tag) last = { ms: now, tag, header: `${FORM_SERVED_COOKIE}=${now}.${tag}.${sign(now, tag)}${attributes}` };
      return last.header;
    },
    read,
    servedAt: (cookieHeader, now) => read(cookieHeader, now)?.at ?? null,
  };
}

function cookieValue(header: string | null | undefined, name: string) {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

let cached: { env: Env; cookies: FormServedCookies } | undefined;

/** The cookies of this deployment: keyed like the consent chain's signature, Secure on https. */
export function formServedCookiesFromEnv(env = getEnv()): FormServedCookies {
  if (cached?.env !== env) cached = { env, cookies: formServedCookies(consentSigningSecret(env), env.SITE_URL.startsWith("https:")) };
  return cached.cookies;
}

/**
 * Pages rendered per request whose form confirms consent, kept as rendered (in served_pages) when
 * they are sent, because no document could rebuild them: the newsletter's confirmation page (its
 * button). The cookie then names the page by its SHA-256. Only a few renders per e-mail sent.
 */
export function keepsRenderedPage(pathname: string) {
  return pathname === "/newsletter/confirm";
}

/** The page a consent form came from, as far as the record can keep it (decisions 079, 080). */
export type FormPage = {
  /** This site's address the form was posted to: only a page of this origin is kept. */
  origin: string;
  /** The ETag of the document the page was sent from, from the cookie; null when unknown. */
  documentEtag: string | null;
  /** The SHA-256 of the page as rendered and kept when it was sent (keepsRenderedPage), from the cookie. */
  renderedSha256: string | null;
  /**
   * A signed-in person's pages are rendered for them, not sent from a shared document: only a page
   * kept as rendered can be theirs.
   */
  signedIn: boolean;
};

/** The form page of a submission, from its cookies. */
export function formPageOf(request: Request): FormPage {
  const cookie = request.headers.get("cookie");
  const served = formServedCookiesFromEnv().read(cookie);
  return { origin: new URL(request.url).origin, documentEtag: served?.documentEtag ?? null, renderedSha256: served?.renderedSha256 ?? null, signedIn: hasSessionCookie(cookie) };
}
