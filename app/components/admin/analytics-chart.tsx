import type { DayFigures } from "~/services/analytics/reports.server";
import { ANALYTICS_TEXTS as T } from "~/lib/analytics-texts";

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 48;
const BOTTOM = 28;
const TOP = 12;

/**
 * Page views (bars) and daily unique visitors (line) by day, drawn on the server as SVG: read
 * without JavaScript, scaled to the width of the screen (390 px included), named by its title
 * and described in words; the table beside it holds every figure.
 */
export function AnalyticsChart({ days }: { days: DayFigures[] }) {
  const max = Math.max(1, ...days.map((day) => Math.max(day.views, day.visitors)));
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / Math.max(1, days.length);
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
  const peak = days.reduce((best, day) => (day.views > best.views ? day : best), days[0]!);
  const total = days.reduce((sum, day) => sum + day.views, 0);
  const average = Math.round(days.reduce((sum, day) => sum + day.visitors, 0) / days.length);
  const line = days.map((day, index) => `${(LEFT + step * index + step / 2).toFixed(1)},${y(day.visitors).toFixed(1)}`).join(" ");
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  return (
    <figure className="mt-6">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="analytics-chart-title analytics-chart-desc" className="h-auto w-full" data-testid="analytics-chart">
        <title id="analytics-chart-title">{T.chartTitle(first, last)}</title>
        <desc id="analytics-chart-desc">{T.chartDescription(total, average, peak.day, peak.views)}</desc>
        <line x1={LEFT} y1={TOP + plotHeight} x2={WIDTH - 8} y2={TOP + plotHeight} stroke="currentColor" strokeOpacity="0.4" />
        <text x={LEFT - 6} y={TOP + 10} textAnchor="end" fontSize="12" fill="currentColor">
          {max.toLocaleString("en-US")}
        </text>
        <text x={LEFT - 6} y={TOP + plotHeight} textAnchor="end" fontSize="12" fill="currentColor">
          0
        </text>
        {days.map((day, index) => (
          <rect key={day.day} x={LEFT + step * index + step * 0.15} y={y(day.views)} width={Math.max(1, step * 0.7)} height={TOP + plotHeight - y(day.views)} className="fill-primary" />
        ))}
        <polyline points={line} fill="none" className="stroke-accent" strokeWidth="2.5" />
        <text x={LEFT} y={HEIGHT - 8} fontSize="12" fill="currentColor">
          {first}
        </text>
        <text x={WIDTH - 8} y={HEIGHT - 8} fontSize="12" textAnchor="end" fill="currentColor">
          {last}
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-muted-foreground">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 bg-primary align-middle" />
          {T.views}
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-1 w-4 bg-accent align-middle" />
          {T.tables.days.columns[2]}
        </span>
      </figcaption>
    </figure>
  );
}
