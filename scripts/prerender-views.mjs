// Part of npm run build: renders the views React Router's prerender cannot write (see
// server/prerender-views.ts) into build/views/ with the server build just made.
const { prerenderViews } = await import("../build/server/index.js");
const count = await prerenderViews("build/views");
console.log(`prerendered ${count} views into build/views`);
