/**
 * Gives every body cell of a rendered Markdown table the text of its column's header
 * (`data-label`), so that on a phone the stylesheet can stack each row into a card of
 * "header: value" lines without any script. Only for our own trusted Markdown output.
 */
export function labelTableCells(html: string) {
  return html.replace(/<table>([\s\S]*?)<\/table>/g, (table: string, inner: string) => {
    const head = /<thead>([\s\S]*?)<\/thead>/.exec(inner)?.[1] ?? "";
    const labels = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((match) => textOf(match[1]!));
    if (labels.length === 0) return table;
    return table.replace(/<tr>([\s\S]*?)<\/tr>/g, (row: string, cells: string) => {
      if (!cells.includes("<td")) return row;
      let column = 0;
      return row.replace(/<td([^>]*)>/g, (_cell, attributes: string) => `<td${attributes} data-label="${labels[column++] ?? ""}">`);
    });
  });
}

/** The header's text, still HTML-escaped (it goes back into an attribute), without tags. */
function textOf(html: string) {
  return html.replace(/<[^>]+>/g, "").replace(/"/g, "&quot;").trim();
}
