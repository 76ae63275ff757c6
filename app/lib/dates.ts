/** "2025-12-03" -> "December 3, 2025", independent of the server's time zone. */
export function formatLongDate(isoDate: string) {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

/** "2025-12-03" -> "/blog/2025/12": the archive of the month an article was published in. */
export function monthHref(isoDate: string) {
  return `/blog/${isoDate.slice(0, 4)}/${isoDate.slice(5, 7)}`;
}

/** "2025-12" -> "December 2025". */
export function formatMonth(month: string) {
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${month}-01T00:00:00Z`));
}
