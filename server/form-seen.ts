import type { IncomingMessage, ServerResponse } from "node:http";
import { FORM_SEEN_PAGE_PARAM } from "~/lib/form-seen";
import { servedFormDocument, type MemoryPages } from "./pages";

/** A transparent 1×1 GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The address of the page the image at `imageUrl` was loaded from, on this site (`origin`): the
 * Referer, which has the query string too, when it is the page the image names; otherwise the
 * path the image names (decision 127), since a browser sends only the origin for an address past
 * 4,096 characters (and none at all under some privacy settings). Undefined when neither is this
 * site's page.
 */
export function formPageAddress(imageUrl: string, referer: string | undefined, origin: string): URL | undefined {
  const named = new URLSearchParams(imageUrl.split("?")[1] ?? "").get(FORM_SEEN_PAGE_PARAM);
  let page: URL | undefined;
  try {
    page = referer ? new URL(referer) : undefined;
  } catch {
    page = undefined;
  }
  if (page && page.origin !== origin) page = undefined;
  if (named === null || !named.startsWith("/") || named.startsWith("//")) return page;
  if (page && page.pathname === named) return page;
  try {
    const url = new URL(named, origin);
    return url.origin === origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ETag of the document the page with a consent form the image was loaded from is answered
 * from now: the cookie names the page the person was shown (decision 080).
 */
export function formDocumentEtag(pages: MemoryPages, imageUrl: string, referer: string | undefined, origin: string) {
  const page = formPageAddress(imageUrl, referer, origin);
  return page && servedFormDocument(pages, page)?.etag;
}

/** The image of a consent form: never cached, so each showing of the form sets the time anew. */
export function sendFormSeen(req: IncomingMessage, res: ServerResponse, setCookie: string, securityHeaders: Record<string, string>) {
  res.writeHead(200, { ...securityHeaders, "Content-Type": "image/gif", "Content-Length": String(GIF.length), "Cache-Control": "no-store", "Set-Cookie": setCookie });
  res.end(req.method === "HEAD" ? undefined : GIF);
}
