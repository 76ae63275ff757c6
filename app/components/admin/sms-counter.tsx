import type { SmsAnalysis } from "~/lib/sms-guidance";

/**
 * The live character, segment and encoding count under an SMS editor, with the guidance warnings.
 * `countId`/`warningsId` let the textarea point at them with aria-describedby.
 */
export function SmsCounter({ analysis, countId, warningsId, extraWarnings = [] }: { analysis: SmsAnalysis; countId: string; warningsId: string; extraWarnings?: string[] }) {
  const warnings = [...analysis.warnings, ...extraWarnings];
  return (
    <>
      <p id={countId} className="mt-2 text-sm text-muted-foreground" aria-live="polite">
        <span data-testid="char-count">{analysis.characters}</span> characters ·{" "}
        <span data-testid="segment-count">{analysis.segments}</span> {analysis.segments === 1 ? "segment" : "segments"} ·{" "}
        <span data-testid="encoding">{analysis.encoding}</span>
      </p>
      {warnings.length > 0 ? (
        <ul id={warningsId} className="mt-3 space-y-1 rounded-md bg-gold-soft p-3 text-sm text-gold-foreground" data-testid="sms-warnings">
          {warnings.map((warning) => (
            <li key={warning}>⚠ {warning}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
