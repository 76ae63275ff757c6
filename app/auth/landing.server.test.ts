import { describe, expect, it } from "vitest";
import { landingAfterSignIn, roleIn } from "./landing.server";

describe("landingAfterSignIn", () => {
  it("goes back to the page that asked for the sign-in, for staff and readers alike", () => {
    expect(landingAfterSignIn("/account?tab=1", "admin")).toBe("/account?tab=1");
    expect(landingAfterSignIn("/articles/bonds-guide", "reader")).toBe("/articles/bonds-guide");
  });

  it("without one, or with a foreign one, sends staff to /admin and readers home", () => {
    expect(landingAfterSignIn(null, "admin")).toBe("/admin");
    expect(landingAfterSignIn(null, "editor")).toBe("/admin");
    expect(landingAfterSignIn("https://evil.example/", "admin")).toBe("/admin");
    expect(landingAfterSignIn(undefined, "reader")).toBe("/");
    expect(landingAfterSignIn("//evil.example", null)).toBe("/");
  });

  it("reads the role from better-auth's sign-in answer", () => {
    expect(roleIn({ user: { role: "admin" } })).toBe("admin");
    expect(roleIn({ twoFactorRedirect: true })).toBeUndefined();
    expect(roleIn(null)).toBeUndefined();
  });
});
