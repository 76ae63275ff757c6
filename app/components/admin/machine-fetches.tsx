import { CLICK_FIGURES, MACHINE_CLICK_LABELS } from "~/lib/click-texts";
import type { ClickCounts } from "~/services/sending/links.server";

/** The machines' fetches of a campaign's links, by kind: shown beside people's clicks, never added to them. */
export function MachineFetches({ counts }: { counts: Pick<ClickCounts, "machineFetches" | "machineReasons"> }) {
  return (
    <section aria-labelledby="machine-fetches-heading" className="text-sm">
      <h2 id="machine-fetches-heading" className="font-semibold">
        {CLICK_FIGURES.machineFetches.label}, by kind
      </h2>
      {counts.machineReasons.length === 0 ? (
        <p className="mt-1 text-muted-foreground">None.</p>
      ) : (
        <ul className="mt-1 space-y-1" data-testid="machine-reasons">
          {counts.machineReasons.map((row) => (
            <li key={row.reason} className="flex justify-between gap-4">
              <span>{MACHINE_CLICK_LABELS[row.reason] ?? row.reason}</span>
              <strong>{row.count.toLocaleString("en-US")}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
