/** The heading of the error view and the title of its page (the route's meta is not rendered for an error). */
export function errorHeading(status: number) {
  return status === 403 ? "Access denied" : status === 503 ? "Temporarily unavailable" : "Something went wrong";
}
