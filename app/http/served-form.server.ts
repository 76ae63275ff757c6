import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/database.server";
import { consentEvents } from "~/db/schema";
import { CERTIFICATE_TEXTS as T } from "~/lib/consent-evidence-texts";
import { rebuildServedPage } from "~/services/consent/served-page.server";

/**
 * The page a consent event's form was served in, rebuilt byte for byte (decision 079), as a
 * document of its own: sandboxed (no script runs, no form posts), never cached or indexed.
 * The SHA-256 the certificate shows is in `X-Content-SHA256`. 404 for anything else.
 */
export async function servedFormResponse(subscriberId: string, eventId: string) {
  const notFound = new Response("No form page is kept for this consent event.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (!/^[0-9]{1,18}$/.test(eventId)) return notFound;
  const db = await getDb();
  const [event] = await db
    .select({ sha256: consentEvents.servedPageSha256, pageUrl: consentEvents.pageUrl })
    .from(consentEvents)
    .where(and(eq(consentEvents.id, Number(eventId)), eq(consentEvents.subscriberId, subscriberId)));
  const page = event?.sha256 ? await rebuildServedPage(db, event.sha256, event.pageUrl) : null;
  if (!page) return notFound;
  if (page.altered) {
    // The kept bytes were changed after they were filed: never shown as the page the person saw (decision 081).
    return new Response(`${T.formAltered(page.documentSha256, page.actualSha256)}\n`, {
      status: 409,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" },
    });
  }
  return new Response(new Uint8Array(page.body), {
    headers: {
      "Content-Type": page.contentType,
      "Content-Security-Policy": "sandbox; default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; form-action 'none'; frame-ancestors 'none'",
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
      "X-Content-SHA256": page.pageSha256,
    },
  });
}
