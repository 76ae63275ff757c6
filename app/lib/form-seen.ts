/**
 * The image each consent form loads (decision 080): its answer sets the signed `form_served`
 * cookie with the server's time, so the form's record has when the page was shown, with or
 * without JavaScript, while the pages themselves set no cookie and stay cacheable.
 */
export const FORM_SEEN_PATH = "/form-seen.gif";
