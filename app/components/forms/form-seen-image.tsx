import { useLocation } from "react-router";
import { formSeenSrc } from "~/lib/form-seen";

/**
 * Tells the server when this form was shown (decision 080), and on which page: the image's
 * address names the page's path, since a browser cuts a Referer past 4,096 characters to the
 * origin alone (decision 127). Invisible, and ignored by screen readers.
 */
export function FormSeenImage() {
  const { pathname } = useLocation();
  return <img src={formSeenSrc(pathname)} alt="" width={1} height={1} decoding="async" aria-hidden="true" className="sr-only" />;
}
