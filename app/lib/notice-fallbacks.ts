import type { Notice } from "./notices";

// The notices pages show when the connection fails (from their clientAction). They live in their
// own small module so public pages do not ship the whole catalogue; lib/notices.ts includes them.

export const GENERIC_SUBSCRIPTION_ERROR = "There was an issue with your subscription. Please try again.";

export const OPT_IN_ERROR: Notice = { title: "Subscription Error", description: GENERIC_SUBSCRIPTION_ERROR, variant: "error" };

export const CONTACT_FAILED: Notice = {
  title: "Message Not Sent",
  description: "We could not send your message. Please check your connection and try again.",
  variant: "error",
};
