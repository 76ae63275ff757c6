import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";

/** Save this long after typing stops... */
export const AUTOSAVE_IDLE_MS = 2_000;
/** ...and at least this often while typing goes on. */
export const AUTOSAVE_MAX_WAIT_MS = 10_000;

/** What the edit route's action answers to `intent=autosave`. */
export type AutosaveAnswer = { ok: true; version: number; savedAt: string } | { ok: false; code: "stale"; version: number } | { ok: false; code?: string };

export const AUTOSAVE_TEXTS = {
  saving: "Saving…",
  savedAt: (time: string) => `Saved at ${time}`,
  stale: "This article was changed elsewhere: reload to see it. Your latest changes are not saved.",
  failed: "Not saved: the server refused the change. Use Save draft to see why.",
} as const;

function clock(iso: string) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

/**
 * Autosaves the article form: after edits stop for 2 s (and at least every 10 s while typing),
 * posts all its fields with `intent=autosave` and `expectedVersion` to the page's own action
 * (without reloading the page's data), keeps the version it gets back (also in the form's
 * `expectedVersion` field, for the next manual save), never starts a save while one is in flight,
 * and saves at once when the page is hidden. Forms without `expectedVersion` (a new article) are
 * not autosaved.
 */
export function useAutosave(form: HTMLFormElement | null): { status: string } {
  const fetcher = useFetcher<AutosaveAnswer>();
  const [status, setStatus] = useState("");
  const state = useRef({ dirty: false, firstDirtyAt: 0, timer: 0 as ReturnType<typeof setTimeout> | 0, inFlight: false, stale: false });
  const saveRef = useRef<() => void>(() => {});

  const versionField = () => form?.elements.namedItem("expectedVersion") as HTMLInputElement | null;

  saveRef.current = () => {
    const current = state.current;
    if (current.timer) clearTimeout(current.timer);
    current.timer = 0;
    const version = versionField();
    if (!form || !version || current.inFlight || current.stale || !current.dirty) return;
    const body = new FormData(form);
    body.set("intent", "autosave");
    body.set("expectedVersion", version.value);
    current.dirty = false;
    current.firstDirtyAt = 0;
    current.inFlight = true;
    setStatus(AUTOSAVE_TEXTS.saving);
    void fetcher.submit(body, { method: "post", defaultShouldRevalidate: false });
  };

  const schedule = () => {
    const current = state.current;
    if (current.timer) clearTimeout(current.timer);
    const wait = Math.max(0, Math.min(AUTOSAVE_IDLE_MS, current.firstDirtyAt + AUTOSAVE_MAX_WAIT_MS - Date.now()));
    current.timer = setTimeout(() => saveRef.current(), wait);
  };

  useEffect(() => {
    if (!form || !versionField()) return;
    const onEdit = (event: Event) => {
      // The autosave's own hidden fields and buttons are not edits.
      if ((event.target as HTMLInputElement | null)?.name === "expectedVersion") return;
      const current = state.current;
      current.dirty = true;
      if (!current.firstDirtyAt) current.firstDirtyAt = Date.now();
      if (!current.inFlight) schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") saveRef.current();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      document.removeEventListener("visibilitychange", onVisibility);
      if (state.current.timer) clearTimeout(state.current.timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form]);

  // A save came back: keep the new version, tell the person, and save again if they typed meanwhile.
  useEffect(() => {
    if (fetcher.state !== "idle" || !state.current.inFlight) return;
    const current = state.current;
    current.inFlight = false;
    const answer = fetcher.data;
    if (answer?.ok) {
      const version = versionField();
      if (version) version.value = String(answer.version);
      setStatus(AUTOSAVE_TEXTS.savedAt(clock(answer.savedAt)));
    } else if (answer && answer.code === "stale") {
      current.stale = true;
      setStatus(AUTOSAVE_TEXTS.stale);
      return;
    } else {
      setStatus(AUTOSAVE_TEXTS.failed);
    }
    if (current.dirty) schedule();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  return { status };
}
