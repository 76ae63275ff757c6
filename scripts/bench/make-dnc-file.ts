// Writes N distinct registry lines ("NPA,NXXXXXX") to a file, deterministic for a given N.
import { createWriteStream } from "node:fs";

export async function makeDncFile(path: string, count: number) {
  const out = createWriteStream(path);
  const areaCodes = ["201", "202", "203", "205", "206", "207", "208", "209", "210", "212"];
  let written = 0;
  for (let i = 0; written < count; i++) {
    const npa = areaCodes[i % areaCodes.length]!;
    // Exchanges 200-999 except N11 and 555, lines spread so numbers stay distinct.
    const n = Math.floor(i / areaCodes.length);
    const exchange = 200 + (n % 790);
    if (/^[2-9]11$/.test(String(exchange)) || exchange === 555) continue;
    const line = String(Math.floor(n / 790) % 10_000).padStart(4, "0");
    if (!out.write(`${npa},${exchange}${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    written++;
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}
