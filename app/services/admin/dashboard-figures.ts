/**
 * What each figure of the staff home (/admin) counts: its label, the sentence the page shows
 * under it, and, for the subscriber figures, which consent events move a person on or off a
 * list. `loadDashboard` builds its queries from these tables and the page prints these words, so
 * the definition exists once (decision 065).
 */

/** Where a consent event leaves the person on one channel's list. */
export type ListState = "in" | "out" | "suppressed";

/**
 * The events that change whether a person is on a list, per channel, and where each leaves them.
 * Events not listed (HELP, a refused Do-Not-Call opt-in, a newsletter confirmation mail sent)
 * change nothing. A pending sign-up is on the list ("in"): it is counted when it is made, and its
 * confirmation does not count again. Bounces and spam complaints end a newsletter subscription
 * for good ("suppressed"): a later sign-up of that address stays refused and is not new.
 */
export const LIST_EVENTS = {
  sms: {
    opt_in: "in",
    start: "in",
    doi_confirmed: "in",
    opt_out: "out",
    doi_declined: "out",
    doi_expired: "out",
  },
  email: {
    email_subscribe: "in",
    email_confirm: "in",
    email_resubscribe: "in",
    email_import: "in",
    opt_out: "out",
    email_unsubscribe: "out",
    email_complaint: "suppressed",
    email_bounce: "suppressed",
  },
} as const satisfies Record<"sms" | "email", Record<string, ListState>>;

/**
 * The person's own choices to leave (a STOP or any opt-out wording, an "N" to the double opt-in
 * request, the unsubscribe link, the account page's stop, the stop that deleting an account
 * makes, a spam complaint). A bounce or an unconfirmed sign-up that expires is not an opt-out.
 */
export const OPT_OUT_EVENTS = {
  sms: ["opt_out", "doi_declined"],
  email: ["opt_out", "email_unsubscribe", "email_complaint"],
} as const satisfies { [C in keyof typeof LIST_EVENTS]: (keyof (typeof LIST_EVENTS)[C])[] };

/** Every figure of the staff home: its label and what it counts, as the page says it. */
export const DASHBOARD_FIGURES = {
  newSubscribers: {
    label: "New subscribers",
    definition:
      "People who came onto a list: an SMS opt-in, START or confirming Y, a newsletter sign-up (counted when it is made, not again when it is confirmed), a come-back from the preferences page or an import. Someone already on the list who signs up again is not new; someone who left and comes back is new again.",
  },
  optOuts: {
    label: "Opt-outs",
    definition:
      "People on a list who chose to leave it: STOP or N by text, the newsletter’s unsubscribe link, a stop on their account page or the deletion of their account, a spam complaint. Bounces and sign-ups never confirmed are not opt-outs; a second STOP from someone already out is not counted again.",
  },
  periods: {
    label: "Periods",
    definition: "Today is the day in US Eastern time; 7 and 30 days are the last 7 × 24 and 30 × 24 hours.",
  },
  textsSent: {
    label: "Texts sent (24 hours)",
    definition: "Texts the provider accepted: welcomes, replies, codes and tests queued in the last 24 hours, plus alert texts sent in the last 24 hours. All go through the one send engine at the number’s rate.",
  },
  textsFailed: {
    label: "Texts failed (24 hours)",
    definition: "Texts given up after their retries in the same 24 hours (welcomes, replies, codes and tests by queue time, alerts by the time they failed).",
  },
  textsWaiting: {
    label: "Texts waiting in the outbox",
    definition: "Texts queued or being sent now: welcomes, replies, codes and tests, and those of alerts that are sending or paused.",
  },
  emailsSent: {
    label: "E-mails sent (24 hours)",
    definition: "E-mails the mail server accepted: account and confirmation mails queued in the last 24 hours, plus newsletter copies sent in the last 24 hours.",
  },
  emailsFailed: {
    label: "E-mails failed (24 hours)",
    definition: "E-mails given up after their retries in the same 24 hours.",
  },
  emailsWaiting: {
    label: "E-mails waiting in the outbox",
    definition: "E-mails queued or being sent now, including those of newsletters that are sending or paused.",
  },
  dnc: {
    label: "Do-Not-Call data",
    definition: "The age of the newest registry download imported, by the date it was downloaded; over 31 days it must be refreshed before texting.",
  },
  unreadInbox: {
    label: "Unread inbox messages",
    definition: "Contact-form messages not yet shown on the inbox page.",
  },
} as const;
