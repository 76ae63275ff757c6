import { dictionary } from "@zxcvbn-ts/language-common";

/** ~49,000 of the most common passwords (zxcvbn-ts's list), compared case-insensitively. */
const COMMON = new Set((dictionary["passwords-common"] as string[]).map((password) => password.toLowerCase()));

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const WEAK_PASSWORD_MESSAGE = "This password is too common and easy to guess. Please choose a stronger one.";

export function isCommonPassword(password: string) {
  return COMMON.has(password.toLowerCase());
}
