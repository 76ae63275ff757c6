import { describe, expect, it } from "vitest";
import { BodyError, guardedCopy, readFormBody, readJsonBody } from "./body.server";
import { REFUSALS } from "./refusals";

const post = (type: string, body: string) =>
  new Request("http://localhost/x", { method: "POST", headers: { "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)) }, body });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(BodyError);
  return { status: (error as BodyError).status, message: (error as BodyError).message };
}

describe("request bodies", () => {
  it("reads a form and a JSON body", async () => {
    expect(await readFormBody(post("application/x-www-form-urlencoded", "a=1&b=%27%3B+DROP"))).toEqual({ a: "1", b: "'; DROP" });
    expect(await readJsonBody(post("application/json", '{"a":[1,"x"]}'))).toEqual({ a: [1, "x"] });
  });

  it("refuses NUL anywhere, encoded or escaped, with 400", async () => {
    const nul = { status: 400, message: REFUSALS.nulCharacter };
    expect(await refusal(readFormBody(post("application/x-www-form-urlencoded", "name=a%00b")))).toEqual(nul);
    expect(await refusal(readFormBody(post("application/x-www-form-urlencoded", "na%00me=x")))).toEqual(nul);
    expect(await refusal(readJsonBody(post("application/json", '{"a":{"b":["\\u0000"]}}')))).toEqual(nul);
    expect(await refusal(guardedCopy(post("application/json", '{"email":"a\\u0000@b.c"}')))).toEqual(nul);
  });

  it("refuses a multipart body that does not parse with 400, not 500", async () => {
    expect(await refusal(readFormBody(post("multipart/form-data; boundary=zz", "firstName=John")))).toEqual({ status: 400, message: REFUSALS.badForm });
  });

  it("refuses auth bodies that are neither JSON nor a form with 415", async () => {
    expect(await refusal(guardedCopy(post("text/plain", '{"email":"a@b.c"}')))).toEqual({ status: 415, message: REFUSALS.jsonType });
  });

  it("hands better-auth an identical copy of an accepted body", async () => {
    const copy = await guardedCopy(post("application/json", '{"email":"a@b.c"}'));
    expect(await copy.json()).toEqual({ email: "a@b.c" });
    expect(copy.headers.get("content-type")).toBe("application/json");
  });
});
