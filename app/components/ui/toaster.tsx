import { lazy, Suspense, useEffect } from "react";
import { toasterMounted } from "~/lib/notify";
import { useHydrated } from "~/lib/use-hydrated";

/** The one notice system: 4 s, at most three visible (spec section 9). */
export const NOTICE_DURATION_MS = 4000;
export const NOTICE_VISIBLE_MAX = 3;

const Sonner = lazy(() => import("sonner").then((module) => ({ default: module.Toaster })));

function ReadySignal() {
  useEffect(() => toasterMounted(), []);
  return null;
}

/** Mounted after hydration, so sonner's code loads off the critical path. */
export function Toaster() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <Sonner position="top-center" duration={NOTICE_DURATION_MS} visibleToasts={NOTICE_VISIBLE_MAX} richColors closeButton />
      <ReadySignal />
    </Suspense>
  );
}
