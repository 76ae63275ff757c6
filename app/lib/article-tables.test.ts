import { describe, expect, it } from "vitest";
import { labelTableCells } from "./article-tables";

describe("labelTableCells", () => {
  it("labels each body cell with its column's header, escaped", () => {
    const html =
      '<table><thead><tr><th>Feature</th><th align="left">U.S. <em>Treasuries</em></th></tr></thead>' +
      '<tbody><tr><td>Yield</td><td align="left">Lower &amp; safer</td></tr><tr><td>Taxes</td><td>State-exempt</td></tr></tbody></table>';
    expect(labelTableCells(html)).toBe(
      '<table><thead><tr><th>Feature</th><th align="left">U.S. <em>Treasuries</em></th></tr></thead>' +
        '<tbody><tr><td data-label="Feature">Yield</td><td align="left" data-label="U.S. Treasuries">Lower &amp; safer</td></tr>' +
        '<tr><td data-label="Feature">Taxes</td><td data-label="U.S. Treasuries">State-exempt</td></tr></tbody></table>',
    );
  });

  it("keeps a quote in a header from breaking the attribute, and leaves other HTML alone", () => {
    expect(labelTableCells('<table><thead><tr><th>"A"</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>')).toContain(
      '<td data-label="&quot;A&quot;">1</td>',
    );
    expect(labelTableCells("<p>No table</p>")).toBe("<p>No table</p>");
  });
});
