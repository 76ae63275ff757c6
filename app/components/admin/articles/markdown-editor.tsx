import CodeMirror, { EditorView, keymap } from "@uiw/react-codemirror";
import { markdownLanguage } from "@codemirror/lang-markdown";
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { ALT_MAX, ALT_MIN } from "~/lib/media-image";
import { imageMarkdown, insertBlock, link, prefixLines, TABLE_TEMPLATE, wrap, type Edit } from "./markdown-commands";
import { ArticlePreview } from "./article-preview";

type MarkdownEditorProps = {
  /** The form's real field: it keeps the value the form submits (and works before this loads). */
  textarea: HTMLTextAreaElement;
  /** The id of the field's visible label: the editor's accessible name. */
  labelId: string;
  /** Ids of hints and errors that describe the field. */
  describedBy?: string;
  /** Called once the editor is on the page (the textarea is then hidden). */
  onShown: () => void;
};

const theme = EditorView.theme({
  "&": { fontSize: "0.95rem", border: "1px solid var(--color-input)", borderRadius: "0.375rem", backgroundColor: "var(--color-background)" },
  "&.cm-focused": { outline: "3px solid var(--color-ring)", outlineOffset: "1px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", padding: "0.75rem 0" },
  ".cm-scroller": { minHeight: "24rem", maxHeight: "70vh" },
});

/**
 * CodeMirror 6 over the article's Markdown (loaded on the article editor only, see
 * article-body-field.tsx), with a formatting toolbar, image upload, and the live preview beside it.
 */
type Command = (text: string, selection: { from: number; to: number }) => Edit;

/** Runs a toolbar command on the editor's text and selection. */
function applyTo(view: EditorView | null, command: Command) {
  if (!view) return false;
  const { from, to } = view.state.selection.main;
  const edit = command(view.state.doc.toString(), { from, to });
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: edit.text }, selection: { anchor: edit.from, head: edit.to } });
  view.focus();
  return true;
}

/** Every edit goes to the form field, with the input event the autosave listens for. */
function writeBack(field: HTMLTextAreaElement, next: string) {
  field.value = next;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

const bold: Command = (text, selection) => wrap(text, selection, "**", "bold text");
const italic: Command = (text, selection) => wrap(text, selection, "_", "italic text");

const TOOLS: { label: string; shortcut?: string; command: Command }[] = [
  { label: "Bold", shortcut: "Control+B", command: bold },
  { label: "Italic", shortcut: "Control+I", command: italic },
  { label: "Heading", command: (text, selection) => prefixLines(text, selection, "## ") },
  { label: "Link", shortcut: "Control+K", command: link },
  { label: "Bulleted list", command: (text, selection) => prefixLines(text, selection, "- ") },
  { label: "Quote", command: (text, selection) => prefixLines(text, selection, "> ") },
  { label: "Table", command: (text, selection) => insertBlock(text, selection, TABLE_TEMPLATE) },
];

const toolClass =
  "rounded-md border border-input bg-background px-2.5 py-1.5 text-sm font-semibold text-primary hover:bg-muted focus-visible:outline-3 focus-visible:outline-ring";

/**
 * CodeMirror 6 over the article's Markdown (loaded on the article editor only, see
 * article-body-field.tsx), with a formatting toolbar, image upload, and the live preview beside it.
 */
export default function MarkdownEditor({ textarea, labelId, describedBy, onShown }: MarkdownEditorProps) {
  const [view, setView] = useState<EditorView | null>(null);
  const [value, setValue] = useState(textarea.value);
  const [imageOpen, setImageOpen] = useState(false);
  // Before the browser paints the editor: text typed into the textarea while this chunk loaded is
  // the text to edit (the textarea is kept equal to the editor from then on, so later runs change nothing).
  useLayoutEffect(() => {
    // The field lives outside React (the server-rendered textarea): reading it here is the sync.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setValue(textarea.value);
    onShown();
  }, [textarea, onShown]);

  const extensions = useMemo(
    () => [
      // The Markdown grammar (GFM: tables, strikethrough) without lang-markdown's embedded HTML,
      // CSS and JavaScript grammars: a third less JavaScript for the editor.
      markdownLanguage.extension,
      EditorView.lineWrapping,
      theme,
      EditorView.contentAttributes.of({ "aria-labelledby": labelId, ...(describedBy ? { "aria-describedby": describedBy } : {}) }),
      keymap.of([
        { key: "Mod-b", run: (target) => applyTo(target, bold) },
        { key: "Mod-i", run: (target) => applyTo(target, italic) },
        { key: "Mod-k", run: (target) => applyTo(target, link) },
      ]),
    ],
    [labelId, describedBy],
  );

  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <div className="min-w-0 space-y-2">
        <div role="toolbar" aria-label="Formatting" aria-controls={`${labelId}-editor`} className="flex flex-wrap gap-1">
          {TOOLS.map((tool) => (
            <button key={tool.label} type="button" onClick={() => applyTo(view, tool.command)} aria-keyshortcuts={tool.shortcut} className={toolClass}>
              {tool.label}
            </button>
          ))}
          <button type="button" aria-expanded={imageOpen} onClick={() => setImageOpen((open) => !open)} className={toolClass}>
            Image
          </button>
        </div>
        {imageOpen ? (
          <ImageUpload
            onInserted={(markdownLine) => {
              applyTo(view, (text, selection) => insertBlock(text, selection, markdownLine));
              setImageOpen(false);
            }}
          />
        ) : null}
        <div id={`${labelId}-editor`}>
          <CodeMirror
            value={value}
            onChange={(next) => {
              setValue(next);
              writeBack(textarea, next);
            }}
            onCreateEditor={(created) => setView(created)}
            extensions={extensions}
            indentWithTab={false}
            basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLineGutter: false, autocompletion: false }}
            theme="light"
          />
        </div>
        <p className="text-xs text-muted-foreground">Tab leaves the editor. Markdown: **bold**, _italic_, ## heading, - list, &gt; quote, tables with | pipes.</p>
      </div>
      <ArticlePreview markdown={value} />
    </div>
  );
}

/** Upload an image (alt text required) and insert its Markdown at the cursor. */
function ImageUpload({ onInserted }: { onInserted: (markdownLine: string) => void }) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const alt = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => file.current?.focus(), []);

  const upload = async () => {
    const chosen = file.current?.files?.[0];
    const text = alt.current?.value.trim() ?? "";
    if (!chosen) return setStatus("Choose an image file first.");
    if (text.length < ALT_MIN) return setStatus(`Describe the image in at least ${ALT_MIN} characters (alt text).`);
    const body = new FormData();
    body.set("alt", text);
    body.set("file", chosen);
    setBusy(true);
    setStatus("Uploading…");
    try {
      const response = await fetch("/admin/media", { method: "POST", body, headers: { Accept: "application/json" } });
      // A proxy's own refusal (its 413 page above its outer limit) is not JSON: still an answer.
      const answer = (await response.json().catch(() => ({}))) as { src?: string; alt?: string; error?: string };
      const refused = response.status === 413 ? "The file is larger than 15 MB." : "The image was not uploaded. Please try again.";
      if (!response.ok || !answer.src) return setStatus(answer.error ?? refused);
      setStatus("Image inserted.");
      onInserted(imageMarkdown(answer.alt ?? text, answer.src));
    } catch {
      setStatus("The image was not uploaded: the connection failed. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div role="group" aria-labelledby={`${id}-title`} className="space-y-3 rounded-md border border-border bg-muted/40 p-3">
      <p id={`${id}-title`} className="text-sm font-bold text-primary">
        Insert an image
      </p>
      <div>
        <label htmlFor={`${id}-file`} className="block text-sm font-semibold">
          Image file (at most 15 MB)
        </label>
        <input ref={file} id={`${id}-file`} type="file" accept="image/*" className="mt-1 block w-full text-sm" />
      </div>
      <div>
        <label htmlFor={`${id}-alt`} className="block text-sm font-semibold">
          Alt text (what the image shows)
        </label>
        <input ref={alt} id={`${id}-alt`} minLength={ALT_MIN} maxLength={ALT_MAX} className="mt-1 block w-full rounded-md border border-input bg-background px-3 py-2" />
      </div>
      <button type="button" onClick={() => void upload()} disabled={busy} className="rounded-md bg-primary px-3 py-2 text-sm font-semibold text-primary-foreground disabled:opacity-60">
        Upload and insert
      </button>
      <p role="status" aria-live="polite" className="text-sm">
        {status}
      </p>
    </div>
  );
}
