import { Link } from "react-router";
import { pageHref, pagerNumbers } from "~/content/paging";
import { ARCHIVE_TEXTS } from "~/lib/archive-texts";
import { cn } from "~/lib/cn";

type PagerProps = {
  path: string;
  params?: Record<string, string | undefined>;
  page: number;
  pageCount: number;
};

const itemClass = "inline-flex h-10 min-w-10 items-center justify-center rounded-md border-2 px-3 text-sm font-semibold";

/**
 * Numbered pages with previous and next, plain links (no JavaScript). "Load More" is the spec's
 * button, now a link to the next page. Nothing at all when the list fits one page.
 */
export function Pager({ path, params, page, pageCount }: PagerProps) {
  if (pageCount <= 1) return null;
  const href = (n: number) => pageHref(path, n, params);
  return (
    <div className="mt-10 flex flex-col items-center gap-6">
      {page < pageCount ? (
        <Link to={href(page + 1)} className="inline-flex h-12 items-center rounded-md bg-primary px-6 font-semibold text-primary-foreground hover:bg-primary/90">
          {ARCHIVE_TEXTS.loadMore}
        </Link>
      ) : null}
      <nav aria-label={ARCHIVE_TEXTS.pagerLabel}>
        <ul className="flex flex-wrap items-center justify-center gap-2">
          {page > 1 ? (
            <li>
              <Link to={href(page - 1)} rel="prev" className={cn(itemClass, "border-border bg-card text-primary hover:border-primary")}>
                <span aria-hidden="true">←&nbsp;</span>
                {ARCHIVE_TEXTS.previous}
                <span className="sr-only"> page</span>
              </Link>
            </li>
          ) : null}
          {pagerNumbers(page, pageCount).map((n, index) =>
            n === null ? (
              <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-muted-foreground">
                …
              </li>
            ) : (
              <li key={n}>
                <Link
                  to={href(n)}
                  aria-label={ARCHIVE_TEXTS.page(n)}
                  aria-current={n === page ? "page" : undefined}
                  className={cn(itemClass, n === page ? "border-primary bg-primary text-primary-foreground" : "border-border bg-card text-primary hover:border-primary")}
                >
                  {n}
                </Link>
              </li>
            ),
          )}
          {page < pageCount ? (
            <li>
              <Link to={href(page + 1)} rel="next" className={cn(itemClass, "border-border bg-card text-primary hover:border-primary")}>
                {ARCHIVE_TEXTS.next}
                <span className="sr-only"> page</span>
                <span aria-hidden="true">&nbsp;→</span>
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>
    </div>
  );
}
