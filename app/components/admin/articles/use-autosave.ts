import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

/** Save this long after typing stops... */
export const AUTOSAVE_IDLE_MS = 2_000;
/** ...and at least this often while typing goes on. */
export const AUTOSAVE_MAX_WAIT_MS = 10_000;

/** What the edit route's action answers to `intent=autosave`. */
export type AutosaveAnswer = { ok: true; version: number; savedAt: string } | { ok: false; code?: string; version?: number };

export const AUTOSAVE_TEXTS = {
  saving: "Saving…",
  savedAt: (time: string) => `Saved at ${time}`,
  stale: "This article was changed elsewhere: reload to see it. Your latest changes are not saved.",
  failed: "Not saved: the server refused the change. Use Save draft to see why.",
} as const;

function clock(iso: string) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

type Submit = (body: FormData) => void;

/** The autosave's timing and state, outside React: one per form field component. */
export class Autosaver {
  private form: HTMLFormElement | null = null;
  private submit: Submit = () => {};
  private report: (status: string) => void = () => {};
  private dirty = false;
  private firstDirtyAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private stale = false;

  /** Listens to the form's edits and the page being hidden; returns the cleanup. */
  attach(form: HTMLFormElement, submit: Submit, report: (status: string) => void) {
    this.form = form;
    this.submit = submit;
    this.report = report;
    if (!this.versionField()) return () => {};
    const onEdit = (event: Event) => {
      if ((event.target as HTMLInputElement | null)?.name === "expectedVersion") return;
      this.dirty = true;
      if (!this.firstDirtyAt) this.firstDirtyAt = Date.now();
      if (!this.inFlight) this.schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") this.save();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      document.removeEventListener("visibilitychange", onVisibility);
      clearTimeout(this.timer);
    };
  }

  private versionField() {
    return this.form?.elements.namedItem("expectedVersion") as HTMLInputElement | null;
  }

  private schedule() {
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(AUTOSAVE_IDLE_MS, this.firstDirtyAt + AUTOSAVE_MAX_WAIT_MS - Date.now()));
    this.timer = setTimeout(() => this.save(), wait);
  }

  /** Posts the form now, unless nothing changed, a save is in flight, or the copy is stale. */
  save() {
    clearTimeout(this.timer);
    const version = this.versionField();
    if (!this.form || !version || this.inFlight || this.stale || !this.dirty) return;
    const body = new FormData(this.form);
    body.set("intent", "autosave");
    body.set("expectedVersion", version.value);
    this.dirty = false;
    this.firstDirtyAt = 0;
    this.inFlight = true;
    this.report(AUTOSAVE_TEXTS.saving);
    this.submit(body);
  }

  /** The save's answer: keep the new version (also for the next manual save), or stop on a conflict. */
  answered(answer: AutosaveAnswer | undefined) {
    if (!this.inFlight) return;
    this.inFlight = false;
    if (answer?.ok) {
      const version = this.versionField();
      if (version) version.value = String(answer.version);
      this.report(AUTOSAVE_TEXTS.savedAt(clock(answer.savedAt)));
    } else if (answer?.code === "stale") {
      this.stale = true;
      this.report(AUTOSAVE_TEXTS.stale);
      return;
    } else {
      this.report(AUTOSAVE_TEXTS.failed);
    }
    if (this.dirty) this.schedule();
  }
}

/**
 * Autosaves the article form: after edits stop for 2 s (and at least every 10 s while typing),
 * posts all its fields with `intent=autosave` and `expectedVersion` to the page's own action
 * without reloading the page's data, keeps the version it gets back, never starts a save while
 * one is in flight, and saves at once when the page is hidden. A form without `expectedVersion`
 * (a new article) is not autosaved.
 */
export function useAutosave(form: HTMLFormElement | null): { status: string } {
  const fetcher = useFetcher<AutosaveAnswer>();
  const [status, setStatus] = useState("");
  const [saver] = useState(() => new Autosaver());
  const { submit } = fetcher;

  useEffect(() => {
    if (!form) return;
    return saver.attach(form, (body) => void submit(body, { method: "post", defaultShouldRevalidate: false }), setStatus);
  }, [form, saver, submit]);

  useEffect(() => {
    if (fetcher.state === "idle") saver.answered(fetcher.data);
  }, [fetcher.state, fetcher.data, saver]);

  return { status };
}
