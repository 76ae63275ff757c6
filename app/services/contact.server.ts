import type { Db } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import type { ContactForm } from "~/lib/forms";

export async function saveContactMessage(
  db: Db,
  message: ContactForm,
  evidence: { ip: string | null; userAgent: string | null },
) {
  const [row] = await db
    .insert(contactMessages)
    .values({ ...message, phone: message.phone ?? null, ...evidence })
    .returning({ id: contactMessages.id });
  return row!.id;
}
