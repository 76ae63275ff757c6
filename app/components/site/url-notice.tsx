import { useEffect } from "react";
import { useLocation } from "react-router";
import { NoticeBanner } from "~/components/ui/notice-banner";
import type { UrlNotice as UrlNoticeData } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { useHydrated } from "~/lib/use-hydrated";

/** History entries whose notice was shown: a revalidation re-renders it, a person sees it once. */
const shown = new Set<string>();

/**
 * A notice carried by ?notice= after a redirect: a toast with JavaScript, a banner without; a
 * lasting notice (LASTING_URL_NOTICES) is a banner in both cases and stays until the person moves
 * on. The parameter is taken out of the address bar (not by a router navigation, which could
 * cancel a form the person submits right away), so a reload does not repeat it.
 */
export function UrlNotice({ notice }: { notice: UrlNoticeData }) {
  const hydrated = useHydrated();
  const location = useLocation();
  useEffect(() => {
    if (shown.has(location.key)) return;
    shown.add(location.key);
    if (!notice.lasting) notify(notice);
    const url = new URL(window.location.href);
    url.searchParams.delete("notice");
    window.history.replaceState(window.history.state, "", url);
  }, [notice, location.key]);
  if (hydrated && !notice.lasting) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-4">
      <NoticeBanner notice={notice} />
    </div>
  );
}
