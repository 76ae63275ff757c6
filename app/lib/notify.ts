import type { Notice } from "./notices";

let markToasterReady: () => void = () => {};
/** Resolves once the Toaster has mounted; a toast raised before that would be lost. */
const toasterReady = new Promise<void>((resolve) => {
  markToasterReady = resolve;
});

export function toasterMounted() {
  markToasterReady();
}

/**
 * Shows a notice with sonner. sonner is loaded on first use (and by the lazy Toaster), so it
 * never sits in a page's first-load JavaScript.
 */
export function notify(notice: Notice) {
  void Promise.all([import("sonner"), toasterReady]).then(([{ toast }]) => {
    const show = notice.variant === "error" ? toast.error : notice.variant === "success" ? toast.success : toast;
    show(notice.title, { description: notice.description });
  });
}
