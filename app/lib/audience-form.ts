/** The audience filters as flat form fields (they work without JavaScript) and back. */

export const SOURCE_OPTIONS = [
  { value: "opt-in", label: "Opt-in page" },
  { value: "newsletter", label: "Newsletter form" },
  { value: "sms-keyword", label: "Texted START" },
] as const;

export const ZONE_OPTIONS = [
  { value: "eastern", label: "Eastern" },
  { value: "central", label: "Central" },
  { value: "mountain", label: "Mountain" },
  { value: "pacific", label: "Pacific" },
  { value: "alaska", label: "Alaska" },
  { value: "hawaii", label: "Hawaii" },
] as const;

export type AudienceFields = {
  sources: string[];
  clickId: string;
  clickIdMatch: string;
  optInFrom?: string;
  optInTo?: string;
  states: string[];
  zones: string[];
};

/** Reads `source_<value>`, `zone_<value>` checkboxes, a comma list of states and the rest. */
export function audienceFromFields(form: Record<string, string | undefined>): AudienceFields {
  return {
    sources: SOURCE_OPTIONS.filter((option) => form[`source_${option.value}`]).map((option) => option.value),
    clickId: form.clickId ?? "",
    clickIdMatch: form.clickIdMatch === "prefix" ? "prefix" : "exact",
    optInFrom: form.optInFrom || undefined,
    optInTo: form.optInTo || undefined,
    states: (form.states ?? "")
      .split(/[\s,]+/)
      .map((state) => state.trim().toUpperCase())
      .filter(Boolean),
    zones: ZONE_OPTIONS.filter((option) => form[`zone_${option.value}`]).map((option) => option.value),
  };
}

export function audienceToFields(audience: AudienceFields): Record<string, string> {
  const fields: Record<string, string> = { clickId: audience.clickId, clickIdMatch: audience.clickIdMatch, states: audience.states.join(", ") };
  if (audience.optInFrom) fields.optInFrom = audience.optInFrom;
  if (audience.optInTo) fields.optInTo = audience.optInTo;
  for (const source of audience.sources) fields[`source_${source}`] = "on";
  for (const zone of audience.zones) fields[`zone_${zone}`] = "on";
  return fields;
}
