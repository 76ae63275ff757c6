import type { IncomingMessage, ServerResponse } from "node:http";
import { servedFormDocument, type MemoryPages } from "./pages";

/** A transparent 1×1 GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The ETag of the document the page at `referer` (this site's page with a consent form) is
 * answered from now: the cookie names the page the person was shown (decision 080).
 */
export function formDocumentEtag(pages: MemoryPages, referer: string | undefined, origin: string) {
  if (!referer) return undefined;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return undefined;
  }
  return url.origin === origin ? servedFormDocument(pages, url)?.etag : undefined;
}

/** The image of a consent form: never cached, so each showing of the form sets the time anew. */
export function sendFormSeen(req: IncomingMessage, res: ServerResponse, setCookie: string, securityHeaders: Record<string, string>) {
  res.writeHead(200, { ...securityHeaders, "Content-Type": "image/gif", "Content-Length": String(GIF.length), "Cache-Control": "no-store", "Set-Cookie": setCookie });
  res.end(req.method === "HEAD" ? undefined : GIF);
}
