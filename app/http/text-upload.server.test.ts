import { describe, expect, it } from "vitest";
import { readTextUpload } from "./text-upload.server";

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return new Request("https://news.example.test/admin/rnd", { method: "POST", body, headers });
}

async function multipart(form: FormData) {
  const request = new Request("https://x.test/", { method: "POST", body: form });
  const bytes = await request.arrayBuffer();
  return post(bytes, { "Content-Type": request.headers.get("content-type")!, "Content-Length": String(bytes.byteLength) });
}

describe("a small text file posted with a form", () => {
  it("is read whole, with its name and the other fields", async () => {
    const form = new FormData();
    form.set("file", new File(["2125550100,2026-11-20,no\n"], "results.csv", { type: "text/csv" }));
    form.set("optedIn", "yes");
    const upload = await readTextUpload(await multipart(form), 1024, "Choose the results file.");
    expect(upload).toMatchObject({ ok: true, text: "2125550100,2026-11-20,no\n", fileName: "results.csv" });
    expect(upload.ok && upload.form.get("optedIn")).toBe("yes");
  });

  it("refuses another content type (415), a body over the limit or of unknown length (413), no file (400) and a broken body (400)", async () => {
    expect(await readTextUpload(post("a,b", { "Content-Type": "text/csv", "Content-Length": "3" }), 1024, "x")).toMatchObject({ ok: false, status: 415 });
    const big = new FormData();
    big.set("file", new File(["x".repeat(2048)], "big.csv"));
    expect(await readTextUpload(await multipart(big), 1024, "x")).toMatchObject({ ok: false, status: 413, message: expect.stringContaining("too large") });
    const empty = new FormData();
    empty.set("file", new File([], "empty.csv"));
    expect(await readTextUpload(await multipart(empty), 1024, "Choose the results file.")).toEqual({ ok: false, status: 400, message: "Choose the results file." });
    const broken = post("--nothing-like-a-boundary", { "Content-Type": "multipart/form-data; boundary=abc", "Content-Length": "25" });
    expect(await readTextUpload(broken, 1024, "x")).toMatchObject({ ok: false, status: 400, message: "The upload could not be read. Try again." });
  });
});
