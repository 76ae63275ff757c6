import { z } from "zod";
import { CATEGORY_NAMES } from "../config/categories";

const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "must be a real date");

export const ArticleMetaSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be kebab-case"),
    title: z.string().min(10).max(120),
    excerpt: z.string().min(40).max(300),
    author: z.string().min(3),
    date: IsoDateSchema,
    updated: IsoDateSchema.optional(),
    category: z.enum(CATEGORY_NAMES),
    image: z.string().regex(/^\/images\/[\w./-]+\.(svg|webp|avif|png|jpg)$/, "must be an image under /images/"),
    imageAlt: z.string().min(10),
    featured: z.boolean(),
  })
  .strict();

export type ArticleMeta = z.infer<typeof ArticleMetaSchema>;

export type Article = ArticleMeta & {
  /** Markdown body without the frontmatter. */
  body: string;
  readingMinutes: number;
  wordCount: number;
};
