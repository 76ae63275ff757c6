import type { HeadersArgs } from "react-router";

/**
 * A route's `headers`: its own (or its parent's), plus the Retry-After of its action's answer. An
 * action's headers reach the page's answer only through this function (React Router passes on
 * Set-Cookie alone), so a limited form post answered 429 without saying when to try again.
 */
export function withActionRetryAfter({ parentHeaders, actionHeaders }: HeadersArgs, own?: HeadersInit) {
  const headers = new Headers(own ?? parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
