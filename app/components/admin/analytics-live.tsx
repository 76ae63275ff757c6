import { useEffect } from "react";
import { useFetcher } from "react-router";
import type { LiveFigures } from "~/services/analytics/live.server";
import { LIVE_JSON_PATH, LIVE_REFRESH_MS } from "~/services/analytics/live";
import { ANALYTICS_LIVE_TEXTS as T } from "~/lib/analytics-texts";

const WIDTH = 360;
const HEIGHT = 150;
const LEFT = 36;
const RIGHT = 4;
const TOP = 8;
const BOTTOM = 22;

const number = new Intl.NumberFormat("en-US");

/**
 * "Last 30 minutes" on /admin/analytics (decision 156). Rendered on the server and readable
 * without JavaScript (the Reload link fetches the page again); with JavaScript, it fetches its
 * own figures alone every LIVE_REFRESH_MS while the tab is visible, and at once when the tab
 * comes back. No aria-live: a figure read aloud every 20 seconds would drown the page.
 */
export function AnalyticsLive({ initial, reloadHref }: { initial: LiveFigures; reloadHref: string }) {
  const fetcher = useFetcher<LiveFigures | { error: string }>({ key: "analytics-live" });
  const fetched = fetcher.data && "minutes" in fetcher.data ? fetcher.data : undefined;
  // The page's own loader may have run since (a new range): the newer of the two is shown.
  const live = fetched && fetched.at > initial.at ? fetched : initial;
  const { load, state } = fetcher;

  // Armed while no fetch is under way, so fetches never pile up on a slow answer.
  useEffect(() => {
    if (state !== "idle") return;
    const refresh = () => {
      if (document.visibilityState === "visible") void load(LIVE_JSON_PATH);
    };
    const timer = setInterval(refresh, LIVE_REFRESH_MS);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [load, state]);

  return (
    <section
      aria-labelledby="analytics-live-heading"
      className="mt-6 rounded-lg border border-border p-4"
      data-testid="analytics-live"
    >
      <h2 id="analytics-live-heading" className="text-2xl font-bold text-primary">
        {T.heading}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        <span data-testid="analytics-live-at">{T.asOf(live.atLabel)}</span>.{" "}
        <a href={reloadHref} className="font-semibold underline">
          {T.reload}
        </a>
      </p>
      <p className="mt-1 text-sm text-muted-foreground">
        {T.lag(live.flushSeconds)} {T.refreshing}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        <div>
          <dt className="text-sm font-semibold text-muted-foreground">{T.views}</dt>
          <dd className="mt-1 text-3xl font-extrabold text-primary" data-testid="analytics-live-views">
            {number.format(live.views)}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-muted-foreground">{T.visitors}</dt>
          <dd className="mt-1 text-3xl font-extrabold text-primary" data-testid="analytics-live-visitors">
            {number.format(live.visitors)}
          </dd>
        </div>
      </dl>
      <p className="mt-1 text-sm text-muted-foreground">{T.visitorsNote}</p>
      <LiveChart live={live} />
      <LivePages pages={live.pages} />
    </section>
  );
}

/** Views per minute as bars, drawn on the server; a viewBox near a phone's width keeps its labels readable at 390 px. */
function LiveChart({ live }: { live: LiveFigures }) {
  const { minutes } = live;
  const max = Math.max(1, ...minutes.map((row) => row.views));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / Math.max(1, minutes.length);
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
  const peak = minutes.reduce((best, row) => (row.views > best.views ? row : best), minutes[0]!);
  const first = minutes[0]!.label;
  const last = minutes.at(-1)!.label;
  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="analytics-live-chart-title"
        aria-describedby="analytics-live-chart-desc"
        className="h-auto w-full max-w-3xl"
        data-testid="analytics-live-chart"
      >
        <title id="analytics-live-chart-title">{T.chartTitle(first, last)}</title>
        <desc id="analytics-live-chart-desc">
          {T.chartDescription(live.views, live.visitors, peak.label, peak.views)}
        </desc>
        <line
          x1={LEFT}
          y1={TOP + plotHeight}
          x2={WIDTH - RIGHT}
          y2={TOP + plotHeight}
          stroke="currentColor"
          strokeOpacity="0.4"
        />
        <text x={LEFT - 4} y={TOP + 10} textAnchor="end" fontSize="12" fill="currentColor">
          {number.format(max)}
        </text>
        <text x={LEFT - 4} y={TOP + plotHeight} textAnchor="end" fontSize="12" fill="currentColor">
          0
        </text>
        {minutes.map((row, index) => (
          <rect
            key={row.minute}
            x={LEFT + step * index + step * 0.15}
            y={y(row.views)}
            width={Math.max(1, step * 0.7)}
            height={TOP + plotHeight - y(row.views)}
            className="fill-primary"
          />
        ))}
        <text x={LEFT} y={HEIGHT - 6} fontSize="12" fill="currentColor">
          {first}
        </text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 6} fontSize="12" textAnchor="end" fill="currentColor">
          {last}
        </text>
      </svg>
    </figure>
  );
}

function LivePages({ pages }: { pages: LiveFigures["pages"] }) {
  return (
    <div className="mt-4 overflow-x-auto" data-testid="analytics-live-pages">
      <table className="w-full text-left text-sm">
        <caption className="pb-2 text-left text-lg font-bold text-primary">{T.pagesCaption}</caption>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className="py-2 pr-2">
              {T.pagesColumns[0]}
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              {T.pagesColumns[1]}
            </th>
          </tr>
        </thead>
        <tbody>
          {pages.length === 0 ? (
            <tr>
              <td colSpan={2} className="py-2 text-muted-foreground">
                {T.none}
              </td>
            </tr>
          ) : (
            pages.map((page) => (
              <tr key={page.path} className="border-t border-border">
                <td className="py-1 pr-2 break-all">{page.path}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{number.format(page.views)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
