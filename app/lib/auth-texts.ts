/**
 * The words of the sign-in card. The sign-in tab keeps the original product's sentence word for
 * word (staff sign in there); the sign-up tab speaks to readers, who are the only people who sign
 * up, and says what an account gives them (decision 066).
 */
export const AUTH_TEXTS = {
  signInLead: "Sign in to access the admin panel",
  signUpLead:
    "Create a free reader account to see and stop your newsletter and SMS alert subscriptions in one place, and to download or delete your data at any time.",
} as const;
