// The measured half of bench:import: one dry run, its time and its peak RSS as a JSON line.
import { createReadStream } from "node:fs";
import { dryRunWordPress } from "~/services/import/wordpress-dry-run.server";

const file = process.argv[2]!;
const baseRssMb = process.memoryUsage.rss() / 1024 / 1024;
let peakRssMb = baseRssMb;
const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, process.memoryUsage.rss() / 1024 / 1024)), 20);
const started = performance.now();
const run = await dryRunWordPress(createReadStream(file, { highWaterMark: 64 * 1024 }));
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// The kernel's own peak, which the sampler could miss between two samples.
peakRssMb = Math.max(peakRssMb, process.resourceUsage().maxRSS / 1024);
const articles = run.articles.published + run.articles.scheduled + run.articles.draft;
console.log(JSON.stringify({ seconds, articles, baseRssMb, peakRssMb, lines: run.lines.length }));
