import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useTextTypedBeforeHydration } from "~/lib/use-typed-before-hydration";
import { AUTOSAVE_TEXTS, useAutosave } from "./use-autosave";

// Only the article editor loads CodeMirror (its own chunk); no other page's JavaScript grows.
const MarkdownEditor = lazy(() => import("./markdown-editor"));

const textareaClass =
  "block w-full rounded-md border border-input bg-background px-3 py-2.5 font-mono text-base text-foreground focus-visible:outline-3 focus-visible:outline-ring aria-invalid:border-destructive";

/**
 * The article's Markdown body. Server-rendered (and without JavaScript) it is a plain textarea;
 * once the page runs, the Markdown editor with its toolbar and live preview loads in its place and
 * writes every change back into the textarea, which stays the form's field. The form is autosaved
 * (a new article once it has a title and a slug); until then its status says nothing is kept.
 */
export function ArticleBodyField({ name, defaultValue, error, isNew = false }: { name: string; defaultValue: string; error?: string; isNew?: boolean }) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [field, setField] = useState<HTMLTextAreaElement | null>(null);
  const [editorShown, setEditorShown] = useState(false);
  useTextTypedBeforeHydration(id, textarea);
  // After hydration: the textarea is known, so the editor can load and the autosave can listen.
  useEffect(() => setField(textarea.current), []);
  const autosave = useAutosave(field?.form ?? null);
  return (
    <div>
      <div className="mb-1.5 text-sm font-semibold text-foreground">
        {/* Once the editor is shown, the label names it (aria-labelledby), not the hidden textarea. */}
        <label id={labelId} htmlFor={editorShown ? undefined : id}>
          Body (Markdown)
        </label>
      </div>
      <textarea
        ref={textarea}
        id={id}
        name={name}
        rows={24}
        defaultValue={defaultValue}
        hidden={editorShown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={textareaClass}
      />
      {field ? (
        <Suspense fallback={null}>
          <MarkdownEditor textarea={field} labelId={labelId} describedBy={error ? errorId : undefined} onShown={() => setEditorShown(true)} />
        </Suspense>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="mt-2 min-h-5 text-sm text-muted-foreground" data-testid="autosave-status">
        {autosave.status || (isNew && !field ? AUTOSAVE_TEXTS.newArticle : "")}
      </p>
    </div>
  );
}
