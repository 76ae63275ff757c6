import { FORM_SEEN_PATH } from "~/lib/form-seen";

/** Tells the server when this form was shown (decision 080); invisible, and ignored by screen readers. */
export function FormSeenImage() {
  return <img src={FORM_SEEN_PATH} alt="" width={1} height={1} decoding="async" aria-hidden="true" className="sr-only" />;
}
