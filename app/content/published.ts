import type { Article } from "./article-schema";

/**
 * A public article as the lists, feeds and search show it: its live revision's fields (the body
 * left in the database, read by the article page through `revisionId`; decision 078) plus the
 * article's dates and author.
 */
export type PublishedArticle = Omit<Article, "body"> & {
  id: string;
  /** The live revision (append-only): its body never changes under this id. */
  revisionId: number;
  authorSlug: string;
  /** Full ISO 8601 times (JSON-LD, sitemap, RSS); `date`/`updated` are their days in New York. */
  publishedAt: string;
  modifiedAt: string;
  seoTitle: string | null;
  seoDescription: string | null;
  sponsored: boolean;
  sponsorName: string | null;
};

export type PublicAuthor = {
  id: string;
  slug: string;
  name: string;
  bio: string;
  photo: string | null;
  credentials: string;
  links: { label: string; url: string }[];
};

/** Everything readers can see, immutable; swapped as a whole when content changes (decision 049). */
export type PublishedSnapshot = {
  readonly articles: readonly PublishedArticle[];
  readonly authors: readonly PublicAuthor[];
  /** Slugs that were public once and are not now (they answer 410). */
  readonly removedSlugs: ReadonlySet<string>;
  readonly loadedAt: number;
};

const EMPTY: PublishedSnapshot = Object.freeze({ articles: [], authors: [], removedSlugs: new Set<string>(), loadedAt: 0 });

type Holder = { snapshot: PublishedSnapshot };
// One per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __publishedSnapshot?: Holder }).__publishedSnapshot ??= { snapshot: EMPTY });

export function currentSnapshot() {
  return holder.snapshot;
}

/** Replaces the snapshot in one assignment: a reader sees the old set or the new one, never a mix. */
export function setSnapshot(snapshot: PublishedSnapshot) {
  holder.snapshot = Object.freeze({ ...snapshot, articles: Object.freeze([...snapshot.articles]), authors: Object.freeze([...snapshot.authors]) });
}
