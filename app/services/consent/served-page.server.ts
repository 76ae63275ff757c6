import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { toNumber, type Db } from "~/db/client.server";
import { servedPages } from "~/db/schema";
import type { FormPage } from "~/http/form-served.server";

/**
 * The page a form was served in (decision 079). The server answers the opt-in page from memory:
 * a prerendered document with the landing URL's values written into its inputs. What it sent is
 * therefore the document (kept once per build in served_pages, by SHA-256) plus the landing URL
 * (kept on the consent event as `pageUrl`). The server registers how it does both, so the app
 * can record the first and rebuild the page from the two, with the very functions that served it.
 */
export type ServedPageSource = {
  /**
   * The document a page with a consent form is answered from (the opt-in page before its values
   * are written in; the home page, on `/` and `/home`; any page answered from memory that holds a
   * form: decision 127), or the earlier one of that page with `etag`; undefined for any other.
   */
  documentFor: (pageUrl: URL, etag: string | null) => { body: Buffer; contentType: string; etag: string } | undefined;
  /** The page as sent for `pageUrl`: `document` with that URL's values written in. */
  fill: (document: Buffer, pageUrl: URL) => Buffer;
};

/** `kept`: the documents already written, per database (a process has one; the tests open several). */
type Holder = { source?: ServedPageSource; kept: WeakMap<Db, Set<string>>; hashes: WeakMap<Buffer, string> };
// One per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __servedPages?: Holder }).__servedPages ??= {
  kept: new WeakMap(),
  hashes: new WeakMap(),
});

export function setServedPageSource(source: ServedPageSource | undefined) {
  holder.source = source;
}

export function sha256Hex(bytes: Buffer) {
  return createHash("sha256").update(bytes).digest("hex");
}

function parse(pageUrl: string | null) {
  if (!pageUrl) return undefined;
  try {
    return new URL(pageUrl);
  } catch {
    return undefined;
  }
}

/**
 * Keeps the document the form at `pageUrl` was served in and answers its SHA-256, or null when
 * that address is not this site's (`page.origin`, the address the form was posted to), not
 * answered from memory (a page rendered per request, the dev server), or when the page's cookie names
 * a document this process no longer has (a new release, or many publications, between sending
 * the form and its return: decision 080).
 * Written before the consent event that names it, so the event never names a missing document; a
 * document already kept costs nothing.
 */
export async function keepServedPage(db: Db, pageUrl: string | null, page: FormPage): Promise<string | null> {
  const url = parse(pageUrl);
  if (!url || url.origin !== page.origin) return null;
  // A page kept as it was rendered (decision 080): named by the cookie, kept before it was sent.
  if (page.renderedSha256) {
    const [row] = await db
      .select({ sha256: servedPages.sha256 })
      .from(servedPages)
      .where(eq(servedPages.sha256, page.renderedSha256));
    return row?.sha256 ?? null;
  }
  if (page.signedIn) return null;
  const document = holder.source?.documentFor(url, page.documentEtag);
  if (!document || (page.documentEtag !== null && page.documentEtag !== document.etag)) return null;
  let sha256 = holder.hashes.get(document.body);
  if (!sha256) {
    sha256 = sha256Hex(document.body);
    holder.hashes.set(document.body, sha256);
  }
  await storePage(db, sha256, document.body, document.contentType);
  return sha256;
}

/**
 * Keeps a page rendered for one request, as it is sent, and answers its SHA-256 (decision 080):
 * the pages of RENDERED_FORM_PAGES, which no kept document could rebuild.
 */
export async function keepRenderedPage(db: Db, body: Buffer, contentType: string) {
  const sha256 = sha256Hex(body);
  await storePage(db, sha256, body, contentType);
  return sha256;
}

async function storePage(db: Db, sha256: string, body: Buffer, contentType: string) {
  let kept = holder.kept.get(db);
  if (!kept) holder.kept.set(db, (kept = new Set()));
  if (kept.has(sha256)) return;
  await db.insert(servedPages).values({ sha256, body, contentType }).onConflictDoNothing();
  kept.add(sha256);
}

export type ServedPage = {
  documentSha256: string;
  pageSha256: string;
  contentType: string;
  body: Buffer;
  altered?: false;
};

/** A kept document whose bytes no longer have the SHA-256 it is filed under: never shown as the page the person saw. */
export type AlteredPage = { documentSha256: string; altered: true; actualSha256: string };

/**
 * The page as it was sent: the kept document with the landing URL's values written in, and the
 * SHA-256 of both. Null when the document is not kept or this process cannot rebuild it; an
 * AlteredPage when the kept bytes no longer hash to the SHA-256 they are filed under (decision 081).
 */
export async function rebuildServedPage(
  db: Db,
  documentSha256: string,
  pageUrl: string | null,
): Promise<ServedPage | AlteredPage | null> {
  const [row] = await db.select().from(servedPages).where(eq(servedPages.sha256, documentSha256));
  if (!row) return null;
  const document = Buffer.from(row.body);
  const actualSha256 = sha256Hex(document);
  if (actualSha256 !== documentSha256) return { documentSha256, altered: true, actualSha256 };
  const url = parse(pageUrl);
  if (!url || !holder.source) return null;
  const body = holder.source.fill(document, url);
  return { documentSha256, pageSha256: sha256Hex(body), contentType: row.contentType, body };
}

const PAGE_CHECK_BATCH = 200;

/**
 * Every kept page against the SHA-256 it is filed under, a batch at a time: answers how many were
 * checked and the first whose bytes were changed, with a consent event that names it.
 */
export async function verifyServedPages(db: Db) {
  let checked = 0;
  let after = "";
  for (;;) {
    const rows = await db.execute<{ sha256: string; body: unknown }>(
      sql`SELECT sha256, body FROM served_pages WHERE sha256 > ${after} ORDER BY sha256 LIMIT ${PAGE_CHECK_BATCH}`,
    );
    if (rows.rows.length === 0) return { checked, altered: null };
    for (const row of rows.rows) {
      checked++;
      if (sha256Hex(byteaOf(row.body)) !== row.sha256) {
        const event = await db.execute<{ id: unknown }>(
          sql`SELECT id FROM consent_events WHERE served_page_sha256 = ${row.sha256} ORDER BY id LIMIT 1`,
        );
        return { checked, altered: { sha256: row.sha256, eventId: event.rows[0] ? toNumber(event.rows[0].id) : null } };
      }
    }
    after = rows.rows.at(-1)!.sha256;
  }
}

/** A bytea column as the two drivers return it from a raw query: a Buffer (pg), a Uint8Array (PGlite). */
function byteaOf(value: unknown) {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === "string" && value.startsWith("\\x")) return Buffer.from(value.slice(2), "hex");
  throw new Error("unexpected bytea value");
}
