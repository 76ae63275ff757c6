import { useEffect, useRef, useState } from "react";

/** How long typing must pause before the preview is rendered again. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * The article body as the published page shows it: the server renders it with the public page's
 * renderMarkdown and typography (POST /admin/articles/preview) a moment after typing stops.
 */
export function ArticlePreview({ markdown }: { markdown: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const section = useRef<HTMLElement>(null);
  const sponsored = useSponsoredBox(section);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const body = new URLSearchParams({ body: markdown });
      if (sponsored) body.set("sponsored", "on");
      fetch("/admin/articles/preview", { method: "POST", body, signal: controller.signal })
        .then(async (response) => {
          const answer = (await response.json()) as { html?: string; error?: string };
          if (!response.ok || answer.html === undefined) return setProblem(answer.error ?? "The preview could not be rendered.");
          setProblem(null);
          setHtml(answer.html);
        })
        .catch((error: unknown) => {
          if ((error as Error).name !== "AbortError") setProblem("The preview could not be loaded. It will try again as you type.");
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [markdown, sponsored]);

  return (
    <section ref={section} aria-labelledby="article-preview-heading" className="min-w-0 rounded-lg border border-border bg-background p-4">
      <h2 id="article-preview-heading" className="text-sm font-bold uppercase tracking-widest text-muted-foreground">
        Preview
      </h2>
      {problem ? (
        <p role="status" className="mt-2 text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      {html === null ? <p className="mt-2 text-sm text-muted-foreground">Rendering…</p> : <div data-testid="article-preview" className="max-w-3xl" dangerouslySetInnerHTML={{ __html: html }} />}
    </section>
  );
}

/**
 * The article form's "Sponsored" box, followed as the editor ticks it: a sponsored article's links
 * carry rel="sponsored", and the preview shows what readers will get.
 */
function useSponsoredBox(ref: React.RefObject<HTMLElement | null>) {
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const read = () => setChecked((form.elements.namedItem("sponsored") as HTMLInputElement | null)?.checked ?? false);
    read();
    form.addEventListener("change", read);
    return () => form.removeEventListener("change", read);
  }, [ref]);
  return checked;
}
