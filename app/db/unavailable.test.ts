import { describe, expect, it } from "vitest";
import { databaseErrorReason, isDatabaseUnavailable } from "./unavailable";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises refused and dropped connections and a server shutting down, also when wrapped", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]))).toBe(true);
  });

  it("leaves query and programming errors alone", () => {
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("42P01", 'relation "x" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe("databaseErrorReason", () => {
  it("names the innermost cause", () => {
    const wrapped = new Error("Failed query: select 1\nparams: ", { cause: withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432") });
    expect(databaseErrorReason(wrapped)).toBe("connect ECONNREFUSED 127.0.0.1:5432");
    expect(databaseErrorReason("plain")).toBe("plain");
  });
});
