/**
 * "The last 30 minutes" on /admin/analytics (issue 34 item 8, decision 156): the window it
 * shows, how long the minute rollups are kept, and how often an open page asks for new figures.
 */

/** Minutes shown, the current (partial) one included. */
export const LIVE_MINUTES = 30;

/**
 * Minutes older than this are deleted at the flusher's hourly prune, so no minute row lives past
 * two hours; the page reads only the last 30 minutes.
 */
export const MINUTES_KEPT_MS = 3_600_000;

/** How often an open, visible page reloads the section (its figures change once per flush). */
export const LIVE_REFRESH_MS = 20_000;

/** Pages listed under the chart. */
export const LIVE_TOP_PAGES = 10;

/** Where the page's script fetches the section alone. */
export const LIVE_JSON_PATH = "/admin/analytics/live";
