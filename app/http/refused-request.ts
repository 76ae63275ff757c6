import { isRouteErrorResponse } from "react-router";

/**
 * Whether an error React Router hands to handleError was caused by what the client sent, and
 * with which status: a thrown 4xx (unknown route, a method the route does not take, a bad
 * request), or the router's own origin check, which it reports as a bare Error("Bad Request")
 * before answering 400. These are refusals to log at info, never faults (issue 21's rule).
 */
export function refusedRequestStatus(error: unknown): number | undefined {
  if (isRouteErrorResponse(error)) return error.status >= 400 && error.status < 500 ? error.status : undefined;
  if (error instanceof Error && error.message === "Bad Request") return 400;
  return undefined;
}
