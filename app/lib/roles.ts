/** Account roles: readers read, editors write and publish articles, admins also manage people. */
export const ROLES = ["reader", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { reader: "Reader", editor: "Editor", admin: "Admin" };

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Who may enter the admin area at all (each page then checks its own role). */
export function isStaffRole(value: unknown): boolean {
  return value === "admin" || value === "editor";
}
