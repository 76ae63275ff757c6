/**
 * The toolbar's Markdown edits as pure functions of (text, selection) -> (text, selection), so
 * they are tested without an editor. Positions are character offsets.
 */
export type Edit = { text: string; from: number; to: number };
export type Selection = { from: number; to: number };

/** Wraps the selection (or a placeholder word) in a marker: **bold**, _italic_. */
export function wrap(text: string, selection: Selection, marker: string, placeholder: string): Edit {
  const chosen = text.slice(selection.from, selection.to) || placeholder;
  const before = text.slice(0, selection.from);
  const after = text.slice(selection.to);
  const start = selection.from + marker.length;
  return { text: `${before}${marker}${chosen}${marker}${after}`, from: start, to: start + chosen.length };
}

/** Puts a prefix at the start of every selected line ("## ", "- ", "> "); again removes it. */
export function prefixLines(text: string, selection: Selection, prefix: string): Edit {
  const lineStart = text.lastIndexOf("\n", selection.from - 1) + 1;
  const nextBreak = text.indexOf("\n", Math.max(selection.to, selection.from));
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split("\n");
  const remove = lines.every((line) => line.startsWith(prefix));
  const changed = lines.map((line) => (remove ? line.slice(prefix.length) : prefix + line.replace(/^(#{1,6} |> |- )/, ""))).join("\n");
  return { text: text.slice(0, lineStart) + changed + text.slice(lineEnd), from: lineStart, to: lineStart + changed.length };
}

/** A link around the selection, with the address selected for typing. */
export function link(text: string, selection: Selection): Edit {
  const label = text.slice(selection.from, selection.to) || "link text";
  const url = "https://";
  const inserted = `[${label}](${url})`;
  const start = selection.from + label.length + 3;
  return { text: text.slice(0, selection.from) + inserted + text.slice(selection.to), from: start, to: start + url.length };
}

/** Inserts a block (a table, an image) on lines of its own at the cursor, selecting nothing. */
export function insertBlock(text: string, selection: Selection, block: string): Edit {
  const before = text.slice(0, selection.from);
  const after = text.slice(selection.to);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const at = before.length + lead.length + block.length;
  return { text: before + lead + block + trail + after, from: at, to: at };
}

export const TABLE_TEMPLATE = "| Column | Column |\n| --- | --- |\n| Cell | Cell |";

/** `![alt](src)`, with characters that would end the alt text escaped. */
export function imageMarkdown(alt: string, src: string) {
  return `![${alt.replace(/[[\]\\]/g, (char) => `\\${char}`)}](${src})`;
}
