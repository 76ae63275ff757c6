import { useEffect, useState } from "react";

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
  offline: "Not saved yet: the connection failed. It is tried again as you type.",
} as const;

/** Browsers refuse `keepalive` requests with bodies over 64 KB. */
const KEEPALIVE_MAX_BYTES = 60_000;

function clock(iso: string) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}


/** The autosave's timing and state, outside React: one per form field component. */
export class Autosaver {
  private form: HTMLFormElement | null = null;
  private url = "";
  private report: (status: string) => void = () => {};
  private dirty = false;
  private firstDirtyAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private stale = false;

  /** Listens to the form's edits and the page being hidden; returns the cleanup. */
  attach(form: HTMLFormElement, url: string, report: (status: string) => void) {
    this.form = form;
    this.url = url;
    this.report = report;
    if (!this.versionField()) return () => {};
    const onEdit = (event: Event) => {
      if ((event.target as HTMLInputElement | null)?.name === "expectedVersion") return;
      this.dirty = true;
      if (!this.firstDirtyAt) this.firstDirtyAt = Date.now();
      if (!this.inFlight) this.schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") this.save(true);
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

  /**
   * Posts the form now, unless nothing changed, a save is in flight, or the copy is stale. When the
   * page is being hidden the request is `keepalive`, so it survives the tab being closed.
   */
  save(leaving = false) {
    clearTimeout(this.timer);
    const version = this.versionField();
    if (!this.form || !version || this.inFlight || this.stale || !this.dirty) return;
    const fields = new FormData(this.form);
    fields.set("intent", "autosave");
    fields.set("expectedVersion", version.value);
    const body = new URLSearchParams([...fields].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    this.dirty = false;
    this.firstDirtyAt = 0;
    this.inFlight = true;
    this.report(AUTOSAVE_TEXTS.saving);
    const keepalive = leaving && body.toString().length < KEEPALIVE_MAX_BYTES;
    fetch(this.url, { method: "POST", body, keepalive, headers: { Accept: "application/json" } })
      .then(async (response) => this.answered((await response.json().catch(() => undefined)) as AutosaveAnswer | undefined))
      .catch(() => this.answered(null));
  }

  /** The save's answer (null: no connection): keep the new version, or stop on a conflict. */
  answered(answer: AutosaveAnswer | undefined | null) {
    if (!this.inFlight) return;
    this.inFlight = false;
    if (answer === null) {
      this.dirty = true;
      this.report(AUTOSAVE_TEXTS.offline);
      return;
    }
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
 * posts all its fields with `intent=autosave` and `expectedVersion` to the article's JSON autosave
 * endpoint (`<page>/autosave`), keeps the version it gets back (also in the form's
 * `expectedVersion`, for the next manual save), never starts a save while one is in flight, and
 * saves at once (keepalive) when the page is hidden. A form without `expectedVersion` (a new
 * article) is not autosaved.
 */
export function useAutosave(form: HTMLFormElement | null): { status: string } {
  const [status, setStatus] = useState("");
  const [saver] = useState(() => new Autosaver());

  useEffect(() => {
    if (!form) return;
    return saver.attach(form, `${window.location.pathname.replace(/\/$/, "")}/autosave`, setStatus);
  }, [form, saver]);

  return { status };
}
