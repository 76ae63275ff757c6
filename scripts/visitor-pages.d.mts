// Types of scripts/visitor-pages.mjs, which Vite's config loader reads as plain JavaScript.
export type ModuleGraph = {
  getModuleInfo(id: string): { importers: readonly string[]; dynamicImporters: readonly string[] } | null;
};
export declare const EVERY_PAGE: number;
export declare function isHydratingVisitorPage(file: string, readSource?: (path: string) => string): boolean;
export declare function visitorPagesRunning(id: string, graph: ModuleGraph, readSource?: (path: string) => string): number;
