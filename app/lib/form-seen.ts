/**
 * The image each consent form loads (decision 080): its answer sets the signed `form_served`
 * cookie with the server's time, so the form's record has when the page was shown, with or
 * without JavaScript, while the pages themselves set no cookie and stay cacheable.
 */
export const FORM_SEEN_PATH = "/form-seen.gif";

/** The query parameter of the image that names the path of the page it is on (decision 127). */
export const FORM_SEEN_PAGE_PARAM = "page";

/** The image's address on the page at `pathname`: the same for every visitor of that page. */
export function formSeenSrc(pathname: string) {
  return `${FORM_SEEN_PATH}?${FORM_SEEN_PAGE_PARAM}=${encodeURIComponent(pathname)}`;
}
