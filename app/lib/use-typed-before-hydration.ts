import { useEffect, useState, type RefObject } from "react";

/**
 * React puts a textarea's server-rendered text back into it when the page hydrates (inputs keep
 * what was typed, textareas do not). Hydration starts after the load event (decision 009), so a
 * person may well have typed by then: read the text before React touches the element (the first
 * render on the client runs before hydration commits) and put it back right after.
 * `onRestore` hears the restored text (a programmatic change fires no React onChange).
 */
export function useTextTypedBeforeHydration(
  id: string,
  ref: RefObject<HTMLTextAreaElement | null>,
  onRestore?: (text: string) => void,
) {
  const [typed] = useState(() => {
    if (typeof document === "undefined") return null;
    const element = document.getElementById(id);
    return element instanceof HTMLTextAreaElement ? element.value : null;
  });
  useEffect(() => {
    const element = ref.current;
    if (typed === null || !element || element.value === typed) return;
    element.value = typed;
    // Listeners on the form (useFormReady) see the change as if typed.
    element.dispatchEvent(new Event("input", { bubbles: true }));
    onRestore?.(typed);
    // Once, for the text that was there before hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
