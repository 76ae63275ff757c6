import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. No tailwind-merge (8 KB of JS on every hydrated page): components do not
 * pass utilities that conflict with a variant's own; add a variant instead.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
