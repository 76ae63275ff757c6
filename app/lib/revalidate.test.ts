import type { ShouldRevalidateFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { keepDataAfterPostToSameUrl } from "./revalidate";

const args = (formMethod: string | undefined, from: string, to: string) =>
  ({
    formMethod,
    currentUrl: new URL(from),
    nextUrl: new URL(to),
    defaultShouldRevalidate: true,
  }) as unknown as ShouldRevalidateFunctionArgs;

describe("keepDataAfterPostToSameUrl", () => {
  it("keeps the data after a post back to the same address", () => {
    expect(keepDataAfterPostToSameUrl(args("POST", "http://x/opt-in?sub2=a", "http://x/opt-in?sub2=a"))).toBe(false);
    expect(keepDataAfterPostToSameUrl(args("post", "http://x/home", "http://x/home"))).toBe(false);
  });

  it("reloads after a redirect elsewhere (sign-in's ?notice=) and on plain navigation", () => {
    expect(keepDataAfterPostToSameUrl(args("POST", "http://x/auth", "http://x/admin/sms?notice=signedIn"))).toBe(true);
    expect(keepDataAfterPostToSameUrl(args(undefined, "http://x/opt-in", "http://x/opt-in"))).toBe(true);
    expect(keepDataAfterPostToSameUrl(args("GET", "http://x/blog", "http://x/blog"))).toBe(true);
  });
});
