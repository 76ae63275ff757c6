import { useCallback, useEffect, useState, type RefObject } from "react";

/**
 * Whether a form's fields satisfy `isReady`, read from the form itself. The inputs stay
 * uncontrolled, so whatever a person typed before the page hydrated counts (a slow phone can
 * take seconds to hydrate), and the state is read once on mount and again on every change.
 */
export function useFormReady(formRef: RefObject<HTMLFormElement | null>, isReady: (data: FormData) => boolean) {
  return useFormValue(formRef, isReady, false);
}

/** Like useFormReady, for any value read from the form (e.g. the line saying what is still missing). */
export function useFormValue<T extends string | boolean>(formRef: RefObject<HTMLFormElement | null>, read: (data: FormData) => T, initial: T) {
  const [ready, setReady] = useState<T>(initial);
  const recompute = useCallback(() => {
    if (formRef.current) setReady(read(new FormData(formRef.current)));
  }, [formRef, read]);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    // Runs once after hydration to pick up typing done before it, then on every edit.
    queueMicrotask(recompute);
    // "reset" fires before the fields are reset, so read them a moment later.
    const afterReset = () => queueMicrotask(recompute);
    form.addEventListener("input", recompute);
    form.addEventListener("change", recompute);
    form.addEventListener("reset", afterReset);
    return () => {
      form.removeEventListener("input", recompute);
      form.removeEventListener("change", recompute);
      form.removeEventListener("reset", afterReset);
    };
  }, [formRef, recompute]);

  return ready;
}

export const filled = (data: FormData, ...names: string[]) =>
  names.every((name) => String(data.get(name) ?? "").trim() !== "");

/** Empties every visible field and unticks every box (a reset would bring back prefilled values). */
export function clearForm(form: HTMLFormElement) {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) continue;
    if (element.type === "hidden") continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") element.checked = false;
    else element.value = "";
  }
  form.dispatchEvent(new Event("input", { bubbles: true }));
}
