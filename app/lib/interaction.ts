/**
 * What a person did on a consent form where JavaScript ran (decision 077), as recorded in the
 * browser and sent with the form: times in milliseconds since the page started loading, and how
 * long the person typed in each field. Durations and instants only: no keystroke, no value, no
 * mouse path. Nothing of it goes to any third party.
 */
export const INTERACTION_FIELDS = ["firstName", "lastName", "email", "phone"] as const;
/** The fields of the SMS opt-in form; the newsletter form adds `email`. */
export type InteractionField = (typeof INTERACTION_FIELDS)[number];
export const INTERACTION_BOXES = ["smsConsent", "termsConsent"] as const;

/** Times in milliseconds since the page started loading; typing durations per field. */
export type Interaction = {
  v: 1;
  /** The load event of the page, and when its JavaScript started (the form was usable before that). */
  loadedMs: number | null;
  hydratedMs: number;
  /**
   * Per field: the time spent typing (pauses over 2 s left out), 0 if typed before the JavaScript
   * ran or never. `email` only on a form that has that field (the newsletter's).
   */
  typingMs: Record<Exclude<InteractionField, "email">, number> & { email?: number };
  /** Per box: when it was last ticked, null if it was never ticked after the JavaScript ran. */
  tickedMs: Record<(typeof INTERACTION_BOXES)[number], number | null>;
  submittedMs: number;
};

/** A typing pause longer than this is not typing time. */
export const TYPING_PAUSE_MS = 2_000;

/**
 * The hidden input a consent form's script writes the page's own address into when it is sent:
 * the Referer stands for it, but a browser cuts a Referer past 4,096 characters to the origin
 * (decision 127).
 */
export const PAGE_ADDRESS_FIELD = "pageUrl";

/**
 * The longest page address and Referer kept (decision 127): well above the landing addresses ad
 * networks make (a thousand or two characters of tracking parameters and click ids), and as long
 * as a request line or header nginx lets through by default (8 KB). A longer one is cut, and the
 * certificate says that the address it shows may be cut.
 */
export const MAX_PAGE_URL = 8_192;
