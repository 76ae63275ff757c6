// Types of scripts/build-info.mjs, which the build scripts run as plain JavaScript.
export declare const BUILD_INFO_FILE: string;
export declare function loadDotEnv(): void;
export declare function bakedSiteUrl(env?: Record<string, string | undefined>): string;
export declare function settingsFingerprint(env?: Record<string, string | undefined>): string;
export declare function sourcesMtime(): number;
export declare function staleReason(): string | null;
