import type { ShouldRevalidateFunction } from "react-router";

/**
 * For loaders that read only the URL and fixed content: a form posted back to the same address
 * changes nothing they return, so the page keeps its data instead of fetching it again. Besides
 * saving a request, this keeps a failed post on a flaky connection a notice on the page (the
 * clientAction's) rather than an error page from a refetch that fails as well.
 */
export const keepDataAfterPostToSameUrl: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" && currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate;
