import { data, redirect } from "react-router";

/** Cards per page of every list: /blog, a category, an author, a month, search results. */
export const CARDS_PER_PAGE = 12;

/** Page numbers as written in a URL: 2, 3, … (page 1 has no parameter: its canonical URL is bare). */
const PAGE_NUMBER = /^[1-9][0-9]{0,5}$/;

/**
 * The page a list URL asks for. No `page` is page 1; `page=1` redirects to the bare URL (one
 * canonical address per page); anything else that is not a page number is a 404, like a page past
 * the last one (see paginate).
 */
export function requestedPage(url: URL): number {
  const values = url.searchParams.getAll("page");
  if (values.length === 0) return 1;
  if (values.length > 1 || !PAGE_NUMBER.test(values[0]!)) throw data(null, { status: 404 });
  const page = Number(values[0]);
  if (page === 1) {
    url.searchParams.delete("page");
    throw redirect(`${url.pathname}${url.search}`, 301);
  }
  return page;
}

export type Paged<T> = { items: T[]; page: number; pageCount: number; total: number };

/** One page of a list; a page past the last is a 404 (page 1 of an empty list is not). */
export function paginate<T>(all: readonly T[], page: number, perPage = CARDS_PER_PAGE): Paged<T> {
  const pageCount = Math.max(1, Math.ceil(all.length / perPage));
  if (page > pageCount) throw data(null, { status: 404 });
  return { items: all.slice((page - 1) * perPage, page * perPage), page, pageCount, total: all.length };
}

/** The address of page `page` of a list at `path` with its other parameters (page 1: none). */
export function pageHref(path: string, page: number, params: Record<string, string | undefined> = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  if (page > 1) search.set("page", String(page));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The numbers a pager shows: the first, the last, and two either side of the current one, with
 * null where numbers are left out ("…"). 500 pages stay a dozen links.
 */
export function pagerNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = new Set([1, pageCount]);
  for (let n = page - 2; n <= page + 2; n++) if (n >= 1 && n <= pageCount) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}
