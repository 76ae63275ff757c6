import { Link } from "react-router";
import { cn } from "~/lib/cn";

/**
 * Previous, "Page N of M" and Next under a paged admin list. `params` are the list's other query
 * parameters (search, filters), kept on every link so that paging never drops a filter.
 */
export function Pager({ page, pages, params = {}, className }: { page: number; pages: number; params?: Record<string, string>; className?: string }) {
  const link = (target: number) => `?${new URLSearchParams({ ...params, page: String(target) })}`;
  return (
    <nav aria-label="Pages" className={cn("flex items-center gap-4 text-sm", className)}>
      {page > 1 ? (
        <Link to={link(page - 1)} className="underline">
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={link(page + 1)} className="underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
