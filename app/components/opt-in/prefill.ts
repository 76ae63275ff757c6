import type { OptInPrefill } from "./opt-in-page";

const MAX_PREFILL = 100;

/**
 * Prefill from the ad click: sub2 (click id), f_name, l_name, phone. The consent boxes are never
 * read from the URL: consent must be a tick by the person.
 */
export function readOptInPrefill(url: URL): OptInPrefill {
  const get = (name: string) => (url.searchParams.get(name) ?? "").replaceAll("\0", "").slice(0, MAX_PREFILL);
  return { clickId: get("sub2"), firstName: get("f_name"), lastName: get("l_name"), phone: get("phone") };
}
