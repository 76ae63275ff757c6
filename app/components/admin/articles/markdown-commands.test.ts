import { describe, expect, it } from "vitest";
import { imageMarkdown, insertBlock, link, prefixLines, TABLE_TEMPLATE, wrap } from "./markdown-commands";

describe("the editor's Markdown commands", () => {
  it("wraps the selection, or a placeholder, and selects the wrapped words", () => {
    expect(wrap("buy gold now", { from: 4, to: 8 }, "**", "bold text")).toEqual({ text: "buy **gold** now", from: 6, to: 10 });
    expect(wrap("ab", { from: 1, to: 1 }, "_", "italic text")).toEqual({ text: "a_italic text_b", from: 2, to: 13 });
  });

  it("prefixes every selected line, replaces another prefix, and removes its own", () => {
    expect(prefixLines("one\ntwo\nthree", { from: 1, to: 6 }, "- ").text).toBe("- one\n- two\nthree");
    expect(prefixLines("- one\n- two", { from: 0, to: 10 }, "- ").text).toBe("one\ntwo");
    expect(prefixLines("> quote", { from: 2, to: 2 }, "## ").text).toBe("## quote");
  });

  it("makes a link with the address selected", () => {
    const edit = link("see the Fed", { from: 8, to: 11 });
    expect(edit.text).toBe("see the [Fed](https://)");
    expect(edit.text.slice(edit.from, edit.to)).toBe("https://");
  });

  it("inserts blocks on lines of their own", () => {
    expect(insertBlock("Intro.", { from: 6, to: 6 }, TABLE_TEMPLATE).text).toBe(`Intro.\n\n${TABLE_TEMPLATE}\n\n`);
    expect(insertBlock("A\n\nB", { from: 3, to: 3 }, "X").text).toBe("A\n\nX\n\nB");
    expect(imageMarkdown("Gold [bars]", "/media/x/1x1")).toBe("![Gold \\[bars\\]](/media/x/1x1)");
  });
});
