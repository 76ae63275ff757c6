import { describe, expect, it } from "vitest";
import { EVERY_PAGE, visitorPagesRunning, type ModuleGraph } from "./visitor-pages.mjs";

const APP = "/site/app";

/** A module graph as the bundler reports it: each module with the modules importing it. */
function graph(importers: Record<string, string[]>, dynamicImporters: Record<string, string[]> = {}): ModuleGraph {
  return {
    getModuleInfo: (id) =>
      id in importers || id in dynamicImporters ? { importers: importers[id] ?? [], dynamicImporters: dynamicImporters[id] ?? [] } : null,
  };
}

/** Route sources: a page without JavaScript says so in its handle (app/root.tsx). */
const SOURCES: Record<string, string> = {
  [`${APP}/routes/home.tsx`]: "export default function Home() {}",
  [`${APP}/routes/opt-in.tsx`]: "export default function OptIn() {}",
  [`${APP}/routes/blog.tsx`]: "export const handle: RouteHandle = { hydrate: false };",
  [`${APP}/routes/admin-people.tsx`]: "export default function People() {}",
};
const readSource = (file: string) => SOURCES[file] ?? "";

describe("visitorPagesRunning", () => {
  it("counts the hydrating visitor pages that import a module, directly or through others", () => {
    const modules = graph({
      [`${APP}/lib/texts.ts`]: [`${APP}/components/card.tsx`, `${APP}/routes/opt-in.tsx`],
      [`${APP}/components/card.tsx`]: [`${APP}/routes/home.tsx`, `${APP}/routes/home.tsx?client-route`],
    });
    expect(visitorPagesRunning(`${APP}/lib/texts.ts`, modules, readSource)).toBe(2);
    expect(visitorPagesRunning(`${APP}/components/card.tsx`, modules, readSource)).toBe(1);
  });

  it("does not count the admin area or pages that ship no JavaScript", () => {
    const modules = graph({
      [`${APP}/lib/roles.ts`]: [`${APP}/routes/admin-people.tsx`, `${APP}/routes/blog.tsx`],
    });
    expect(visitorPagesRunning(`${APP}/lib/roles.ts`, modules, readSource)).toBe(0);
  });

  it("counts a part a page loads on demand, and the root route as every page", () => {
    const modules = graph(
      { [`${APP}/lib/form.ts`]: [`${APP}/components/newsletter.tsx`, `${APP}/routes/opt-in.tsx`], [`${APP}/components/chrome.tsx`]: [`${APP}/root.tsx`] },
      { [`${APP}/components/newsletter.tsx`]: [`${APP}/routes/home.tsx`] },
    );
    expect(visitorPagesRunning(`${APP}/lib/form.ts`, modules, readSource)).toBe(2);
    expect(visitorPagesRunning(`${APP}/components/chrome.tsx`, modules, readSource)).toBe(EVERY_PAGE);
  });

  it("ends on import cycles", () => {
    const modules = graph({ [`${APP}/lib/a.ts`]: [`${APP}/lib/b.ts`], [`${APP}/lib/b.ts`]: [`${APP}/lib/a.ts`, `${APP}/routes/home.tsx`] });
    expect(visitorPagesRunning(`${APP}/lib/a.ts`, modules, readSource)).toBe(1);
  });
});
