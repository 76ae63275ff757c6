/** "2025-12-03" -> "December 3, 2025", independent of the server's time zone. */
export function formatLongDate(isoDate: string) {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}
