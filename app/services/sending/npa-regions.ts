import generated from "./npa-regions.json";

export type NpaRegion = { state: string; zones: string[] };

/**
 * NPAs whose area crosses a time-zone line that the per-NPA data (generated once from Google's
 * libphonenumber geocoding and time-zone files, see docs/decisions/020-send-engine.md) misses.
 * Reviewed by hand against county time-zone maps; a message must fit the window in every zone.
 */
const STRADDLING: Record<string, string[]> = {
  "308": ["America/Denver"], // Nebraska panhandle
  "458": ["America/Boise"], // Malheur County, Oregon
  "541": ["America/Boise"],
  "574": ["America/Chicago"], // Starke County, Indiana
  "606": ["America/Chicago"], // Clinton, Russell and Wayne counties, Kentucky
  "620": ["America/Denver"], // western Kansas
  "785": ["America/Denver"],
  "812": ["America/Chicago"], // south-western Indiana
  "930": ["America/Chicago"],
  "906": ["America/Chicago"], // Michigan counties on the Wisconsin line
};

const TABLE: Record<string, NpaRegion> = Object.fromEntries(
  Object.entries(generated as Record<string, NpaRegion>).map(([npa, region]) => [
    npa,
    { state: region.state, zones: [...new Set([...region.zones, ...(STRADDLING[npa] ?? [])])].sort() },
  ]),
);

/** State and every time zone of a US area code, or null for one we do not know. */
export function regionOfNpa(npa: string): NpaRegion | null {
  return TABLE[npa] ?? null;
}

/** The area code of an E.164 US number (+1NPA...). */
export function npaOf(e164: string) {
  return e164.startsWith("+1") ? e164.slice(2, 5) : "";
}

export function regionOfPhone(e164: string) {
  return regionOfNpa(npaOf(e164));
}

/** Time-zone groups an admin may filter by, with the names staff use, and their IANA zones. */
export const AUDIENCE_ZONES = {
  eastern: { label: "Eastern", zones: ["America/New_York", "America/Detroit", "America/Indiana/Indianapolis", "America/Kentucky/Louisville"] },
  central: { label: "Central", zones: ["America/Chicago", "America/North_Dakota/Center", "America/Menominee"] },
  mountain: { label: "Mountain", zones: ["America/Denver", "America/Boise", "America/Phoenix"] },
  pacific: { label: "Pacific", zones: ["America/Los_Angeles"] },
  alaska: { label: "Alaska", zones: ["America/Anchorage", "America/Juneau", "America/Adak"] },
  hawaii: { label: "Hawaii", zones: ["Pacific/Honolulu"] },
} as const;

export type ZoneGroup = keyof typeof AUDIENCE_ZONES;
export const ZONE_GROUPS = Object.keys(AUDIENCE_ZONES) as ZoneGroup[];

/** The area codes of the given states and time-zone groups (audience filters). */
export function npasMatching(filter: { states?: string[]; zones?: ZoneGroup[] }) {
  const states = new Set(filter.states ?? []);
  const zones = new Set<string>((filter.zones ?? []).flatMap((group) => AUDIENCE_ZONES[group].zones));
  return Object.entries(TABLE)
    .filter(([, region]) => (states.size === 0 || states.has(region.state)) && (zones.size === 0 || region.zones.some((zone) => zones.has(zone))))
    .map(([npa]) => npa);
}

export const KNOWN_STATES = [...new Set(Object.values(TABLE).map((region) => region.state))].sort();
