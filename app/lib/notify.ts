import type { Notice } from "./notices";

/**
 * Shows a notice with sonner. sonner is loaded on first use (and by the lazy Toaster), so it
 * never sits in a page's first-load JavaScript.
 */
export function notify(notice: Notice) {
  void import("sonner").then(({ toast }) => {
    const show = notice.variant === "error" ? toast.error : notice.variant === "success" ? toast.success : toast;
    show(notice.title, { description: notice.description });
  });
}
