import { Search } from "lucide";
import { Icon } from "~/components/ui/icon";
import { SEARCH_FIELD_TEXTS } from "~/lib/search-field-texts";
import { cn } from "~/lib/cn";

type SearchFormProps = {
  /** Unique per page: the input's id (the top bar, its mobile menu and /blog each have one). */
  id: string;
  defaultValue?: string;
  className?: string;
  /** "bar": on the dark top bar. */
  tone?: "page" | "bar";
  /** The button as a magnifier (its name stays "Search"): the top bar's room goes to the field. */
  iconButton?: boolean;
};

/**
 * A plain GET form to /search: it works with JavaScript off (a full page load) and needs none on.
 * MAX_QUERY_LENGTH in the search service cuts anything longer.
 */
export function SearchForm({ id, defaultValue, className, tone = "page", iconButton = false }: SearchFormProps) {
  return (
    <form method="get" action="/search" role="search" aria-label={SEARCH_FIELD_TEXTS.label} className={cn("flex gap-2", className)}>
      <label htmlFor={id} className="sr-only">
        {SEARCH_FIELD_TEXTS.label}
      </label>
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={defaultValue}
        placeholder={SEARCH_FIELD_TEXTS.placeholder}
        maxLength={200}
        className={cn(
          "h-10 min-w-0 flex-1 rounded-md border-2 px-3 text-sm",
          tone === "bar" ? "border-primary-soft bg-white text-foreground" : "border-border bg-card text-foreground",
        )}
      />
      <button
        type="submit"
        className={cn(
          "h-10 shrink-0 rounded-md text-sm font-semibold",
          iconButton ? "inline-flex w-10 items-center justify-center" : "px-4",
          tone === "bar" ? "bg-gold-soft text-primary hover:bg-white" : "bg-primary text-primary-foreground hover:bg-primary/90",
        )}
      >
        {iconButton ? (
          <>
            <Icon node={Search} className="h-5 w-5" />
            <span className="sr-only">{SEARCH_FIELD_TEXTS.button}</span>
          </>
        ) : (
          SEARCH_FIELD_TEXTS.button
        )}
      </button>
    </form>
  );
}
