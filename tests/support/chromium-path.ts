/**
 * The browser every test drives: Debian's headless build of Chromium (package
 * chromium-headless-shell), the same engine as Debian's chromium without the desktop browser's
 * layers, and what Playwright itself runs for headless tests. The journeys took a third less time
 * in it (decision 162). The benchmarks keep the full browser: Lighthouse measures what readers get.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
