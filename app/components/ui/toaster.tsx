import { Toaster as Sonner } from "sonner";

/** The one notice system: 4 s, at most three visible (spec section 9). */
export const NOTICE_DURATION_MS = 4000;
export const NOTICE_VISIBLE_MAX = 3;

export function Toaster() {
  return <Sonner position="top-center" duration={NOTICE_DURATION_MS} visibleToasts={NOTICE_VISIBLE_MAX} richColors closeButton />;
}
