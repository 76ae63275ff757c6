import { readFileSync } from "node:fs";
import path from "node:path";

/** The vectors of tests/fixtures/xss-vectors.txt (OWASP's filter evasion cheat sheet and Markdown forms). */
export function xssVectors(): string[] {
  const file = readFileSync(path.join(import.meta.dirname, "../fixtures/xss-vectors.txt"), "utf8");
  return file.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("# ") && line !== "#");
}

/** The attributes that load or navigate to an address. */
const URL_ATTRIBUTES = new Set(["href", "src", "srcset", "action", "formaction", "xlink:href", "background", "dynsrc", "lowsrc", "data", "poster", "cite"]);
const SCRIPTING_SCHEMES = /^(javascript|data|vbscript|livescript):/i;

function decodeEntities(value: string) {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_match, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&(quot|amp|lt|gt|apos|colon|tab|newline);/gi, (_match, name: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", apos: "'", colon: ":", tab: "\t", newline: "\n" })[name.toLowerCase()]!);
}

/**
 * What would run or load a script in this HTML, as readable lines (empty when none): a `<` that
 * opens no tag of `allowedTags`, an event handler or style attribute, or an address with a
 * scripting scheme (or protocol-relative) in a URL attribute. Read as a browser reads the
 * sanitizer's output, which quotes every attribute and escapes every other `<`.
 */
export function scriptingProblems(html: string, allowedTags: readonly string[]): string[] {
  const problems: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*(\/?)>/y;
  for (let index = html.indexOf("<"); index !== -1; index = html.indexOf("<", index + 1)) {
    tag.lastIndex = index;
    const match = tag.exec(html);
    if (!match) {
      problems.push(`a "<" that opens no tag: ${html.slice(index, index + 60)}`);
      continue;
    }
    const name = match[2]!.toLowerCase();
    if (!allowedTags.includes(name)) problems.push(`<${name}> is not allowed`);
    for (const attribute of match[3]!.matchAll(/\s+([^\s"'>/=]+)(?:="([^"]*)")?/g)) {
      const attributeName = attribute[1]!.toLowerCase();
      const value = decodeEntities(attribute[2] ?? "");
      if (attributeName.startsWith("on")) problems.push(`<${name} ${attributeName}>: an event handler`);
      if (attributeName === "style") problems.push(`<${name} style>: a style attribute`);
      if (!URL_ATTRIBUTES.has(attributeName)) continue;
      const addresses = attributeName === "srcset" ? value.split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? "") : [value];
      for (const address of addresses) {
        // Browsers ignore control characters and spaces inside a scheme ("jav\tascript:").
        const bare = [...address].filter((char) => char.charCodeAt(0) > 0x20).join("");
        if (SCRIPTING_SCHEMES.test(bare) || bare.startsWith("//")) problems.push(`<${name} ${attributeName}="${address}">`);
      }
    }
  }
  return problems;
}
