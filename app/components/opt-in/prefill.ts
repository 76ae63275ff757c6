import { useMemo } from "react";
import { useLocation } from "react-router";
import type { OptInPrefill } from "./opt-in-page";

export const MAX_PREFILL = 100;

/** The query parameters the ad click carries, by the form field they prefill. */
export const PREFILL_PARAMS = { clickId: "sub2", firstName: "f_name", lastName: "l_name", phone: "phone" } as const;

/**
 * Prefill from the ad click: sub2 (click id), f_name, l_name, phone. The consent boxes are never
 * read from the URL: consent must be a tick by the person. The production server writes the same
 * values into the prerendered page (server/opt-in-prefill.ts), so both must read them this way.
 */
export function readOptInPrefill(params: URLSearchParams): OptInPrefill {
  const get = (name: string) => (params.get(name) ?? "").replaceAll("\0", "").slice(0, MAX_PREFILL);
  return {
    clickId: get(PREFILL_PARAMS.clickId),
    firstName: get(PREFILL_PARAMS.firstName),
    lastName: get(PREFILL_PARAMS.lastName),
    phone: get(PREFILL_PARAMS.phone),
  };
}

/**
 * Read from the address, not from loader data: the loader data (and so the inline scripts and
 * their CSP hashes) stay the same for every query string, which lets the server answer any
 * /opt-in?… from the prerendered document.
 */
export function useOptInPrefill(): OptInPrefill {
  const { search } = useLocation();
  return useMemo(() => readOptInPrefill(new URLSearchParams(search)), [search]);
}
