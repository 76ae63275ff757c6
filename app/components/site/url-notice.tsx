import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { NoticeBanner } from "~/components/ui/notice-banner";
import type { Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A notice carried by ?notice= after a redirect: a toast with JavaScript (then the parameter is
 * taken out of the address, so a reload or revalidation does not show it again), a banner without.
 */
export function UrlNotice({ notice }: { notice: Notice }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has("notice")) return;
    notify(notice);
    params.delete("notice");
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "", hash: location.hash }, { replace: true, preventScrollReset: true });
  }, [notice, location, navigate]);
  if (hydrated) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-4">
      <NoticeBanner notice={notice} />
    </div>
  );
}
