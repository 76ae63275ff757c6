/** Opt-ins per day as an SVG bar chart (no chart library: 90 bars need none). */
export function OptInChart({ days }: { days: { day: string; n: number }[] }) {
  const max = Math.max(1, ...days.map((d) => d.n));
  const width = 900;
  const height = 160;
  const bar = width / Math.max(1, days.length);
  const total = days.reduce((sum, d) => sum + d.n, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height + 2}`} className="h-32 w-full md:h-auto" preserveAspectRatio="none" role="img" aria-label={`Web opt-ins per day, last ${days.length} days: ${total} in all, at most ${max} on one day`}>
        {days.map((d, i) => {
          const h = (d.n / max) * height;
          return (
            <rect key={d.day} x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} fill="#13315c">
              <title>{`${d.day}: ${d.n}`}</title>
            </rect>
          );
        })}
        <line x1="0" y1={height} x2={width} y2={height} stroke="#8a8778" />
      </svg>
      {/* The dates are HTML text, not SVG text scaled down with the chart: legible at any width. */}
      <div className="mt-1 flex justify-between text-sm text-muted-foreground">
        <span>{days[0]?.day}</span>
        <span>{days.at(-1)?.day}</span>
      </div>
      <figcaption className="mt-1 text-sm text-muted-foreground">Web opt-ins per day, last {days.length} days ({total} in all).</figcaption>
    </figure>
  );
}
