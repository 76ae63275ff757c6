import { CATEGORY_NAMES } from "~/config/categories";
import type { ImportRunOptions } from "./runs.server";

const isOurs = (name: string) => (CATEGORY_NAMES as readonly string[]).includes(name);

/**
 * The review page's form as a run's options: `map:<old slug>` → one of our categories (empty for
 * "the category below"), `defaultCategory`, `overwriteEdited`. Only the dry run's categories are
 * read; a name that is not one of ours is refused in words.
 */
export function mappingFromForm(form: Record<string, string | undefined>, categories: readonly { slug: string }[]): { ok: true; options: Omit<ImportRunOptions, "uploadsPath" | "uploadsFolder" | "oldSiteUrl"> } | { ok: false; message: string } {
  const mapped: Record<string, string> = {};
  for (const { slug } of categories) {
    const chosen = (form[`map:${slug}`] ?? "").trim();
    if (!chosen) continue;
    if (!isOurs(chosen)) return { ok: false, message: `“${chosen}” is not a category here.` };
    mapped[slug] = chosen;
  }
  const fallback = (form.defaultCategory ?? "").trim();
  if (fallback && !isOurs(fallback)) return { ok: false, message: `“${fallback}” is not a category here.` };
  return { ok: true, options: { categories: mapped, defaultCategory: fallback, overwriteEdited: form.overwriteEdited === "yes" } };
}
