import { z } from "zod";
import { INTERACTION_BOXES, INTERACTION_FIELDS, type Interaction } from "./interaction";

// Server only: zod stays out of the pages' JavaScript (the record's type and names are in ./interaction).

/** A day: a form left open longer is still a form, but bigger numbers are not believed. */
const MS = z.number().int().min(0).max(86_400_000);

export const InteractionSchema: z.ZodType<Interaction> = z.strictObject({
  v: z.literal(1),
  /** The load event of the page, and when its JavaScript started (the form was usable before that). */
  loadedMs: MS.nullable(),
  hydratedMs: MS,
  /** Per field: the time spent typing (pauses over 2 s are left out), 0 if typed before the JavaScript ran or never. */
  typingMs: z.strictObject({
    ...(Object.fromEntries(INTERACTION_FIELDS.filter((name) => name !== "email").map((name) => [name, MS])) as Record<"firstName" | "lastName" | "phone", typeof MS>),
    email: MS.optional(),
  }),
  /** Per box: when it was last ticked, null if it was never ticked after the JavaScript ran. */
  tickedMs: z.strictObject(Object.fromEntries(INTERACTION_BOXES.map((name) => [name, MS.nullable()])) as Record<(typeof INTERACTION_BOXES)[number], z.ZodNullable<typeof MS>>),
  submittedMs: MS,
});

/**
 * The interaction record sent with a form, or null. Lenient by design: a missing, malformed or
 * forged record never costs a sign-up; it is simply not evidence.
 */
export function parseInteraction(value: unknown): Interaction | null {
  // A form sends the JSON text; a JSON API body may carry the object itself.
  if (typeof value === "object" && value !== null) {
    const parsed = InteractionSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  }
  if (typeof value !== "string" || value.length === 0 || value.length > 2_000) return null;
  try {
    const parsed = InteractionSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

