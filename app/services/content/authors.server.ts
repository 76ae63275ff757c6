import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { refuseUniqueViolation } from "~/db/unique-violation";
import { auditLog, authors } from "~/db/schema";
import { AUTHOR_FIELD_MESSAGES as M } from "~/lib/article-texts";
import { IMAGE_PATTERN, SLUG_PATTERN } from "./article-fields";
import { announceContentChanged, notifyContentChanged } from "./changes.server";

export type AuthorRow = typeof authors.$inferSelect;
export type AuthorLink = { label: string; url: string };

/** "Label | https://…" per line, as the form's textarea holds them. */
export function parseLinks(text: string): AuthorLink[] | null {
  const links: AuthorLink[] = [];
  for (const line of text.split(/\r?\n/).map((value) => value.trim()).filter(Boolean)) {
    const [label, url, ...rest] = line.split("|").map((part) => part.trim());
    if (!label || !url || rest.length > 0 || !/^https:\/\/[^\s]+$/.test(url)) return null;
    try {
      new URL(url);
    } catch {
      return null;
    }
    links.push({ label, url });
  }
  return links;
}

export function formatLinks(links: AuthorLink[]) {
  return links.map((link) => `${link.label} | ${link.url}`).join("\n");
}

export const AuthorFormSchema = z.object({
  name: z.string().trim().min(2, M.nameRequired).max(80, M.nameRequired),
  slug: z.string().trim().regex(SLUG_PATTERN, M.slugFormat).max(100, M.slugFormat),
  bio: z.string().trim().max(2000, M.bioLength).default(""),
  credentials: z.string().trim().max(200, M.credentialsLength).default(""),
  photo: z
    .string()
    .trim()
    .default("")
    .refine((value) => value === "" || IMAGE_PATTERN.test(value), M.photoFormat)
    .transform((value) => (value === "" ? null : value)),
  links: z
    .string()
    .default("")
    .transform((value, context) => {
      const links = parseLinks(value);
      if (!links) {
        context.addIssue({ code: "custom", message: M.linksFormat });
        return z.NEVER;
      }
      return links;
    }),
});

export type AuthorFieldErrors = Partial<Record<keyof z.input<typeof AuthorFormSchema>, string>>;
export type AuthorResult = { ok: true; author: AuthorRow } | { ok: false; code: "invalid"; errors: AuthorFieldErrors } | { ok: false; code: "not_found" };

function parse(input: unknown): { ok: true; values: z.output<typeof AuthorFormSchema> } | { ok: false; code: "invalid"; errors: AuthorFieldErrors } {
  const parsed = AuthorFormSchema.safeParse(input);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: AuthorFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof AuthorFieldErrors;
    errors[key] ??= issue.message;
  }
  return { ok: false, code: "invalid", errors };
}

const SLUG_TAKEN = { ok: false, code: "invalid", errors: { slug: M.slugTaken } } as const satisfies AuthorResult;

/** The slug is checked before the write; another process taking it in between meets the constraint, and the same message. */
function refusingTakenSlug<T>(work: () => Promise<T>) {
  return refuseUniqueViolation(work, "authors_slug_unique", () => SLUG_TAKEN);
}

export async function listAuthors(db: Db) {
  return db.select().from(authors).orderBy(asc(authors.name));
}

export async function getAuthor(db: Db, id: string) {
  const [row] = await db.select().from(authors).where(eq(authors.id, id));
  return row ?? null;
}

/** A new profile. Readers see it once an article of theirs is published. */
export async function createAuthor(db: Db, input: { input: unknown; actor: string }): Promise<AuthorResult> {
  const parsed = parse(input.input);
  if (!parsed.ok) return parsed;
  return refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: authors.id }).from(authors).where(eq(authors.slug, parsed.values.slug));
      if (taken) return SLUG_TAKEN;
      const [row] = await tx.insert(authors).values(parsed.values).returning();
      await tx.insert(auditLog).values({ actor: input.actor, action: "author.created", entity: `author:${row!.id}`, after: JSON.stringify(parsed.values) });
      return { ok: true as const, author: row! };
    }),
  );
}

/** Updates a profile; the author page and every byline change at once. */
export async function updateAuthor(db: Db, input: { id: string; input: unknown; actor: string }): Promise<AuthorResult> {
  const parsed = parse(input.input);
  if (!parsed.ok) return parsed;
  const result = await refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(authors).where(eq(authors.id, input.id)).for("update");
      if (!before) return { ok: false as const, code: "not_found" as const };
      if (before.slug !== parsed.values.slug) {
        const [taken] = await tx.select({ id: authors.id }).from(authors).where(eq(authors.slug, parsed.values.slug));
        if (taken) return SLUG_TAKEN;
      }
      const [row] = await tx
        .update(authors)
        .set({ ...parsed.values, updatedAt: new Date() })
        .where(eq(authors.id, input.id))
        .returning();
      const { createdAt: _c, updatedAt: _u, ...rest } = before;
      await tx.insert(auditLog).values({ actor: input.actor, action: "author.updated", entity: `author:${input.id}`, before: JSON.stringify(rest), after: JSON.stringify(parsed.values) });
      await notifyContentChanged(tx, "live");
      return { ok: true as const, author: row! };
    }),
  );
  if (result.ok) announceContentChanged("live");
  return result;
}
