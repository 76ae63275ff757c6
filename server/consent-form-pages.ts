import { FORM_SEEN_PATH } from "~/lib/form-seen";
import type { StaticFile } from "./static-files";

/** Every consent form loads this image (FormSeenImage): a page that does holds a form. */
const MARKER = Buffer.from(`src="${FORM_SEEN_PATH}`);
const known = new WeakMap<StaticFile, boolean>();

/**
 * Does this page hold a consent form (the opt-in form, the newsletter form)? Such a page is kept
 * by the consent record when a form on it is sent (decisions 079, 127). Read once per file: the
 * files are replaced, never changed, so the answer is cached with the file.
 */
export function holdsConsentForm(file: StaticFile) {
  let holds = known.get(file);
  if (holds === undefined) {
    holds = file.contentType.startsWith("text/html") && file.body.includes(MARKER);
    known.set(file, holds);
  }
  return holds;
}
