import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { CARDS_PER_PAGE } from "~/content/paging";
import { typographicText } from "~/lib/markdown.server";

/**
 * Site search over the published articles (issue 26, decision 074): PostgreSQL's full-text search
 * on `published_articles` (one row per published article, kept by a trigger), the same SQL on PGlite.
 */

/** Longer input is cut: nobody types more, and it bounds the work of a hostile query. */
export const MAX_QUERY_LENGTH = 200;

/** ts_headline parses all the text it is given: the snippet is looked for in the body's beginning only. */
const HEADLINE_CHARS = 4_000;

/** Marks around the matched words in a snippet: control characters no article contains. */
const HIT_START = "\u0001";
const HIT_END = "\u0002";

/** A snippet's text in pieces, `hit` where a query word matched: rendered as text, never as HTML. */
export type SnippetPart = { text: string; hit: boolean };

export type SearchHit = { slug: string; snippet: SnippetPart[] };

export type SearchResults = { query: string; hits: SearchHit[]; total: number; page: number; pageCount: number };

/**
 * The user's words as tsquery inputs. `websearch_to_tsquery` takes quotes ("phrase"), `or` and
 * `-word` and never fails on any input; it drops `*`, so a word ending in `*` (`retir*`) is taken
 * out and matched as a prefix with `to_tsquery(word:*)`, the word reduced to letters and digits so
 * that no tsquery operator reaches it. Control characters (our snippet marks) are removed.
 */
export function parseQuery(raw: string) {
  // eslint-disable-next-line no-control-regex
  const text = raw.replace(/[\u0000-\u001f\u007f]/g, " ").slice(0, MAX_QUERY_LENGTH).trim();
  const prefixes: string[] = [];
  const words = text.replace(/(^|[\s(])([\p{L}\p{N}][\p{L}\p{N}'’-]*)\*/gu, (_match, before: string, word: string) => {
    const clean = word.replace(/[^\p{L}\p{N}]/gu, "");
    if (clean) prefixes.push(`${clean}:*`);
    return before;
  });
  return { text, words: words.trim(), prefixes };
}

function tsQuery(words: string, prefixes: string[]): SQL | null {
  const parts: SQL[] = [];
  if (words) parts.push(sql`websearch_to_tsquery('english', ${words})`);
  for (const prefix of prefixes) parts.push(sql`to_tsquery('english', ${prefix})`);
  if (parts.length === 0) return null;
  return sql.join(parts, sql` && `);
}

/**
 * "a \u0001b\u0002 c" -> [{a }, {b, hit}, { c}]; markdown punctuation is left out of the text. The
 * snippet comes from the Markdown source: it gets the typography the rendered article has (curly
 * quotes and apostrophes, dashes, ellipses), which sees through the marks around a hit.
 */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const cleaned = typographicText(
    headline
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[*_`#|]+/g, "")
      .replace(/(^|\s)>+(?=\s)/g, "$1")
      .replace(/\s+/g, " ")
      .trim(),
  );
  for (const [index, piece] of cleaned.split(new RegExp(`${HIT_START}|${HIT_END}`)).entries()) {
    if (piece) parts.push({ text: piece, hit: index % 2 === 1 });
  }
  return parts;
}

/**
 * One page of the published articles matching `raw`, best first (ranked on title and excerpt, so
 * that ranking does not read every matching body's vector; then newest). Only published articles
 * have a row in `published_articles`: a draft, a scheduled article or an unpublished one never appears. A query with nothing to search
 * (empty, only stop words or punctuation) finds nothing. `page` past the last returns no hits.
 */
export async function searchArticles(db: Db, raw: string, page = 1, perPage = CARDS_PER_PAGE): Promise<SearchResults> {
  const { text, words, prefixes } = parseQuery(raw);
  const query = tsQuery(words, prefixes);
  const empty = { query: text, hits: [], total: 0, page, pageCount: 1 };
  if (!query) return empty;
  // The headline is made only for the page's rows (the inner query limits first): ts_headline
  // parses the whole text and is the costly part. The match is always decided through the GIN
  // index: the planner does not price reading each row's body vector back from TOAST, and for a
  // common word it would pick a sequential scan that reads all of them (6x slower at 10,000).
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    return tx.execute<{ slug: string; total: number | string; headline: string }>(sql`
    WITH q AS (SELECT (${query}) AS query),
    matched AS (
      SELECT s.revision_id, s.slug, s.publish_at, ts_rank(s.search_head, q.query) AS rank, count(*) OVER () AS total, q.query
      FROM published_articles s CROSS JOIN q
      WHERE s.search @@ q.query
      ORDER BY rank DESC, s.publish_at DESC, s.slug
      LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
    )
    SELECT m.slug, m.total,
      ts_headline('english', coalesce(r.content->>'excerpt', '') || ' … ' || left(coalesce(r.content->>'body', ''), ${HEADLINE_CHARS}), m.query,
        ${`StartSel=${HIT_START}, StopSel=${HIT_END}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`}) AS headline
    FROM matched m JOIN article_revisions r ON r.id = m.revision_id
    ORDER BY m.rank DESC, m.publish_at DESC, m.slug`);
  });
  const rows = result.rows;
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return {
    query: text,
    hits: rows.map((row) => ({ slug: row.slug, snippet: snippetParts(row.headline) })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / perPage)),
  };
}
