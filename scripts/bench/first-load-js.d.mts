// Types of scripts/bench/first-load-js.mjs, which the benchmark runs as plain JavaScript.
export type FileSizes = { raw: number; gz: number; br: number };
export type FirstLoad = { list: Map<string, FileSizes>; files: number; raw: number; gz: number; br: number; html: number; htmlGz: number };
export declare const FIRST_LOAD_BUDGET_BYTES: number;
export declare function analyze(pageUrl: string, html?: string): Promise<FirstLoad>;
