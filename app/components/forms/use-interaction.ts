import { useEffect, useRef, type RefObject } from "react";
import { INTERACTION_BOXES, INTERACTION_FIELDS, MAX_PAGE_URL, PAGE_ADDRESS_FIELD, TYPING_PAUSE_MS, type Interaction, type InteractionField } from "~/lib/interaction";

type Field = InteractionField;
type Box = (typeof INTERACTION_BOXES)[number];

const now = () => Math.round(performance.now());

/**
 * A consent form's record (the opt-in page's and the newsletter's): from hydration on, how long
 * the person typed in each field and when each consent box was ticked (decision 077); `stamp()` writes the record, with the submit time, into the form's
 * hidden `interaction` input right before the form is sent, and the page's address into its
 * `pageUrl` input. Only durations and times are kept.
 */
export function useInteractionRecord(formRef: RefObject<HTMLFormElement | null>) {
  const record = useRef<{ hydratedMs: number; typingMs: Interaction["typingMs"]; lastInput: Partial<Record<Field, number>>; tickedMs: Record<Box, number | null> } | null>(null);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const state = {
      hydratedMs: now(),
      // The e-mail field is timed only on a form that has one (the newsletter's).
      typingMs: { firstName: 0, lastName: 0, phone: 0, ...(form.elements.namedItem("email") ? { email: 0 } : {}) } as Interaction["typingMs"],
      lastInput: {} as Partial<Record<Field, number>>,
      tickedMs: { smsConsent: null, termsConsent: null } as Record<Box, number | null>,
    };
    record.current = state;
    const onInput = (event: Event) => {
      const target = event.target as HTMLInputElement;
      const name = target.name as Field;
      if (!(INTERACTION_FIELDS as readonly string[]).includes(name)) return;
      const at = now();
      const previous = state.lastInput[name];
      if (previous !== undefined && at - previous <= TYPING_PAUSE_MS && state.typingMs[name] !== undefined) state.typingMs[name] += at - previous;
      state.lastInput[name] = at;
    };
    const onChange = (event: Event) => {
      const target = event.target as HTMLInputElement;
      const name = target.name as Box;
      if (!(INTERACTION_BOXES as readonly string[]).includes(name)) return;
      state.tickedMs[name] = target.checked ? now() : null;
    };
    form.addEventListener("input", onInput);
    form.addEventListener("change", onChange);
    return () => {
      form.removeEventListener("input", onInput);
      form.removeEventListener("change", onChange);
    };
  }, [formRef]);

  return function stamp() {
    const form = formRef.current;
    // The page's own address: a browser cuts the Referer past 4,096 characters to the origin alone
    // (decision 127). Without the fragment, as a Referer has none.
    const address = form?.elements.namedItem(PAGE_ADDRESS_FIELD);
    if (address instanceof HTMLInputElement) address.value = `${location.origin}${location.pathname}${location.search}`.slice(0, MAX_PAGE_URL);
    const state = record.current;
    const input = form?.elements.namedItem("interaction");
    if (!state || !(input instanceof HTMLInputElement)) return;
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const value: Interaction = {
      v: 1,
      loadedMs: navigation && navigation.loadEventEnd > 0 ? Math.round(navigation.loadEventEnd) : null,
      hydratedMs: state.hydratedMs,
      typingMs: { ...state.typingMs },
      tickedMs: { ...state.tickedMs },
      submittedMs: now(),
    };
    input.value = JSON.stringify(value);
  };
}
