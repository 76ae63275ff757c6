import { useEffect } from "react";
import { useLocation } from "react-router";
import { NoticeBanner } from "~/components/ui/notice-banner";
import type { Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { useHydrated } from "~/lib/use-hydrated";

/** History entries whose notice was shown: a revalidation re-renders it, a person sees it once. */
const shown = new Set<string>();

/**
 * A notice carried by ?notice= after a redirect: a toast with JavaScript, a banner without. The
 * parameter is taken out of the address bar (not by a router navigation, which could cancel a
 * form the person submits right away).
 */
export function UrlNotice({ notice }: { notice: Notice }) {
  const hydrated = useHydrated();
  const location = useLocation();
  useEffect(() => {
    if (shown.has(location.key)) return;
    shown.add(location.key);
    notify(notice);
    const url = new URL(window.location.href);
    url.searchParams.delete("notice");
    window.history.replaceState(window.history.state, "", url);
  }, [notice, location.key]);
  if (hydrated) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-4">
      <NoticeBanner notice={notice} />
    </div>
  );
}
