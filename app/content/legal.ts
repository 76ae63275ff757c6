import matter from "gray-matter";
import { z } from "zod";

export const LegalMetaSchema = z
  .object({
    title: z.string().min(3),
    description: z.string().min(50).max(170),
    updated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  })
  .strict();

export const LEGAL_SLUGS = ["privacy", "terms", "disclaimer"] as const;
export type LegalSlug = (typeof LEGAL_SLUGS)[number];

const legalFiles = import.meta.glob<string>("./legal/*.md", { query: "?raw", import: "default", eager: true });

export function getLegalPage(slug: LegalSlug) {
  const raw = legalFiles[`./legal/${slug}.md`];
  if (!raw) throw new Error(`Missing legal page ${slug}`);
  const parsed = matter(raw);
  return { slug, ...LegalMetaSchema.parse(parsed.data), body: parsed.content.trim() };
}
