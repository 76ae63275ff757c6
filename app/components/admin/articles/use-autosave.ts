import { useEffect, useState } from "react";

/** Save this long after typing stops... */
export const AUTOSAVE_IDLE_MS = 2_000;
/** ...and at least this often while typing goes on. */
export const AUTOSAVE_MAX_WAIT_MS = 10_000;

/** What the autosave endpoint answers; a new article's first save also names the draft it created. */
export type AutosaveAnswer = { ok: true; version: number; savedAt: string; id?: string } | { ok: false; code?: string; version?: number };

export const AUTOSAVE_TEXTS = {
  saving: "Saving…",
  savedAt: (time: string) => `Saved at ${time}`,
  stale: "This article was changed elsewhere: reload to see it. Your latest changes are not saved.",
  failed: "Not saved: the server refused the change. Use Save draft to see why.",
  offline: "Not saved yet: the connection failed. It is tried again as you type.",
  /** A new article, before the page's script runs (or without it). */
  newArticle: "Not saved yet: Save draft keeps it.",
  /** A new article that cannot be a draft yet: nothing is kept until it can. */
  newArticleNeeds: (titleMin: number) =>
    `Not saved yet: it is saved as you type once it has a title (at least ${titleMin} characters) and a slug.`,
} as const;

/** The address of an article's editor, and of its autosave. */
const articlePath = (id: string) => `/admin/articles/${id}`;

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
  /** A new article: the first save creates its draft (at `…/new/autosave`). */
  private creating = false;
  private createTried = false;
  /** A button pressed while a save was in flight: its post waits for that save's answer. */
  private heldSubmit: HTMLElement | null | undefined;
  /**
   * The version the server last confirmed and the new draft's editor address, kept here rather
   * than only in the form: a re-render puts the form's rendered values back, and each post gets
   * these written into the form just before it is read.
   */
  private version = "";
  private actionPath: string | null = null;

  /** Listens to the form's edits and the page being hidden; returns the cleanup. */
  attach(form: HTMLFormElement, url: string, report: (status: string) => void) {
    this.form = form;
    this.url = url;
    this.report = report;
    const version = this.versionField();
    if (!version) return () => {};
    this.version = version.value;
    this.creating = version.value === "";
    if (this.creating) this.report(this.draftProblem() ?? "");
    const onEdit = (event: Event) => {
      if ((event.target as HTMLInputElement | null)?.name === "expectedVersion") return;
      this.dirty = true;
      if (!this.firstDirtyAt) this.firstDirtyAt = Date.now();
      if (this.inFlight) return;
      if (this.creating) {
        // Nothing can be kept until the draft can exist; from the keystroke that makes it
        // possible, it is created at once.
        const problem = this.draftProblem();
        if (problem) this.report(problem);
        else if (this.createTried) this.schedule();
        else this.save();
        return;
      }
      this.schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") this.save(true);
    };
    // A button's post carries every field: no autosave may race it with the same version. One
    // in flight is waited for (its answer brings the version, or the new draft's address), then
    // the post goes on; the router's own submit handler (on the root) sees only that one.
    const onSubmit = (event: SubmitEvent) => {
      clearTimeout(this.timer);
      if (this.inFlight) {
        event.preventDefault();
        event.stopPropagation();
        this.heldSubmit = event.submitter;
        return;
      }
      this.dirty = false;
      this.firstDirtyAt = 0;
      const field = this.versionField();
      if (field) field.value = this.version;
      if (this.actionPath) form.setAttribute("action", this.actionPath);
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onSubmit);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onSubmit);
      document.removeEventListener("visibilitychange", onVisibility);
      clearTimeout(this.timer);
    };
  }

  private versionField() {
    return this.form?.elements.namedItem("expectedVersion") as HTMLInputElement | null;
  }

  /** Why a new article cannot be a draft yet (the title and slug fields' own rules), or null. */
  private draftProblem() {
    const title = this.form?.elements.namedItem("title") as HTMLInputElement | null;
    const slug = this.form?.elements.namedItem("slug") as HTMLInputElement | null;
    if (!title || !slug) return null;
    const titleLength = title.value.trim().length;
    const titleOk = titleLength >= Math.max(1, title.minLength) && (title.maxLength < 0 || titleLength <= title.maxLength);
    return titleOk && slug.validity.valid ? null : AUTOSAVE_TEXTS.newArticleNeeds(Math.max(1, title.minLength));
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
    if (this.creating && this.draftProblem()) return;
    const fields = new FormData(this.form);
    fields.set("intent", "autosave");
    if (this.creating) {
      fields.delete("expectedVersion");
      this.createTried = true;
    }
    else fields.set("expectedVersion", this.version);
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

  /**
   * A new article's draft exists: from now on the page is that article's editor. Its address
   * becomes the article's (a reload opens the draft; the router's own history state is kept, as
   * the URL notice does), its buttons post to the article's action, and autosaves go to its endpoint.
   */
  private created(id: string) {
    this.creating = false;
    this.url = `${articlePath(id)}/autosave`;
    this.actionPath = articlePath(id);
    this.form?.setAttribute("action", this.actionPath);
    window.history.replaceState(window.history.state, "", articlePath(id));
  }

  /** The save's answer (null: no connection): keep the new version, or stop on a conflict. */
  answered(answer: AutosaveAnswer | undefined | null) {
    if (!this.inFlight) return;
    this.inFlight = false;
    this.settle(answer);
    if (this.heldSubmit !== undefined) {
      const submitter = this.heldSubmit;
      this.heldSubmit = undefined;
      this.form?.requestSubmit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : undefined);
    }
  }

  private settle(answer: AutosaveAnswer | undefined | null) {
    if (answer === null) {
      this.dirty = true;
      this.report(AUTOSAVE_TEXTS.offline);
      return;
    }
    if (answer?.ok) {
      this.version = String(answer.version);
      const version = this.versionField();
      if (version) version.value = this.version;
      if (this.creating && answer.id) this.created(answer.id);
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
 * saves at once (keepalive) when the page is hidden. A new article (an empty `expectedVersion`)
 * says that nothing is kept until it has a title and a slug, then creates its draft at once and
 * goes on as above; a form without `expectedVersion` is not autosaved.
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
