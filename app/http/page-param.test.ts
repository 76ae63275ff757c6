import { describe, expect, it } from "vitest";
import { pageParam } from "./page-param";

describe("pageParam", () => {
  it.each([
    ["", 1],
    ["?page=3", 3],
    ["?page=0", 1],
    ["?page=-4", 1],
    ["?page=abc", 1],
    ["?page=99999999", 10_000],
  ])("%s -> %i", (search, page) => {
    expect(pageParam(new Request(`http://localhost/admin/messages${search}`))).toBe(page);
  });
});
