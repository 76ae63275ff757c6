import { describe, expect, it } from "vitest";
import { databaseStartFailure, listenFailure } from "./start-failure";
import { NotADataDirError } from "~/db/data-dir.server";

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("a start the operator must fix", () => {
  it("names what to change when listen is refused, and leaves other failures alone", () => {
    expect(listenFailure(errno("EADDRINUSE"), 3000, "0.0.0.0")?.message).toMatch(/^port 3000 on 0\.0\.0\.0 is already in use .*set PORT to a free port$/);
    expect(listenFailure(errno("EACCES"), 80, "0.0.0.0")?.message).toMatch(/set PORT to 1024 or above/);
    expect(listenFailure(errno("EADDRNOTAVAIL"), 3000, "10.9.9.9")?.message).toMatch(/^HOST 10\.9\.9\.9 is not an address of this machine/);
    expect(listenFailure(new Error("something else"), 3000, "0.0.0.0")).toBeNull();
  });

  it("maps the database's refusals, found through wrapping errors, to sentences without the password", () => {
    const url = "postgres://site:hunter2-secret@db.internal:6543/patriot";
    const wrapped = (inner: Error) => Object.assign(new Error("Failed query: SHOW fsync"), { cause: inner });
    const cases: [Error, RegExp][] = [
      [wrapped(errno("ECONNREFUSED", "connect ECONNREFUSED 10.0.0.5:6543")), /^could not connect to PostgreSQL at db\.internal:6543\/patriot \(connect ECONNREFUSED 10\.0\.0\.5:6543\): start PostgreSQL there/],
      [new Error("timeout exceeded when trying to connect"), /^could not connect to PostgreSQL at db\.internal:6543\/patriot \(timeout exceeded/],
      [errno("28P01", 'password authentication failed for user "site"'), /refused the sign-in .*correct the user and password in DATABASE_URL/],
      [errno("3D000", 'database "patriot" does not exist'), /does not exist .*create it \(createdb\)/],
      [errno("ENOTFOUND", "getaddrinfo ENOTFOUND db.internal"), /host in DATABASE_URL .* is not known/],
    ];
    for (const [error, expected] of cases) {
      const failure = databaseStartFailure(error, url);
      expect(failure?.message, error.message).toMatch(expected);
      expect(JSON.stringify(failure?.details)).not.toContain("hunter2");
    }
    // A query of ours that is wrong is a fault with a stack, not an operator's mistake.
    expect(databaseStartFailure(errno("42P01", 'relation "x" does not exist'), url)).toBeNull();
    expect(databaseStartFailure(new Error("boom"), undefined)).toBeNull();
  });

  it("passes on the embedded database's own refusals, which already say what to do", () => {
    const locked = Object.assign(new Error("The embedded database in ./data/pglite is in use by process 42. Stop it first, or set DATABASE_URL to share PostgreSQL between processes."), { name: "DatabaseLockedError" });
    expect(databaseStartFailure(locked, undefined)).toMatchObject({ message: locked.message, details: { database: "embedded" } });
    const inner = new NotADataDirError("/srv/data/pglite is the embedded database's own folder, inside a data folder: give the data folder, /srv/data.");
    expect(databaseStartFailure(inner, undefined)).toMatchObject({ message: inner.message, details: { database: "embedded" } });
  });
});
