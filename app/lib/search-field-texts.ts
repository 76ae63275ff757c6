/**
 * The words of the search field in the top bar, its mobile menu and /search. Apart from
 * ARCHIVE_TEXTS: the top bar is on every page, and every hydrating page would download the whole
 * archive vocabulary with it (first-load budget, decision 148).
 */
export const SEARCH_FIELD_TEXTS = {
  label: "Search articles",
  button: "Search",
  placeholder: "Search articles",
} as const;
