import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_PHRASES, commandLineActor, describeActor, describeChange, formatStoredPhone, type AuditSubject } from "./audit-texts";

const article: AuditSubject = { noun: "the article", name: "Gold in 2027", href: "/admin/articles/a1" };
const person: AuditSubject = { noun: "", name: "ann@example.com", href: "/admin/people?q=ann%40example.com" };
const alert: AuditSubject = { noun: "the alert", name: "Fed day", href: "/admin/alerts/c1" };
const dnc: AuditSubject = { noun: "the Do-Not-Call list", href: "/admin/dnc" };

/** The sentence as the staff home shows it, with the subject in brackets. */
function sentence(entry: { actor: string | null; action: string; before?: string | null; after?: string | null }, subject: AuditSubject) {
  const change = describeChange({ before: null, after: null, ...entry }, subject);
  expect(change.subject).toBe(subject);
  const named = change.subject.name ? `${change.subject.noun ? `${change.subject.noun} ` : ""}[${change.subject.name}]` : `[${change.subject.noun}]`;
  return `${change.actor} ${change.lead}${named}${change.tail}`;
}

describe("describeChange", () => {
  it("says who did what to whom, with the roles before and after", () => {
    const entry = { actor: "boss@example.com", action: "user.role", before: JSON.stringify({ email: "ann@example.com", role: "reader" }), after: JSON.stringify({ email: "ann@example.com", role: "editor" }) };
    expect(sentence(entry, person)).toBe("boss@example.com changed the role of [ann@example.com] from reader to editor");
  });

  it("names the article an editor published, scheduled or restored", () => {
    expect(sentence({ actor: "ed@example.com", action: "article.published" }, article)).toBe("ed@example.com published the article [Gold in 2027]");
    expect(sentence({ actor: "ed@example.com", action: "article.scheduled", after: JSON.stringify({ status: "scheduled", publishAt: "2026-12-01T14:00:00.000Z" }) }, article)).toBe(
      "ed@example.com scheduled the article [Gold in 2027] for Dec 1, 2026, 9:00 AM EST",
    );
    expect(sentence({ actor: "ed@example.com", action: "article.restored" }, article)).toBe("ed@example.com restored an earlier version of the article [Gold in 2027]");
    expect(sentence({ actor: "system", action: "article.published_on_schedule" }, article)).toBe("The site published the article [Gold in 2027] as scheduled");
  });

  it("writes phone numbers, counts and files as a person reads them", () => {
    expect(sentence({ actor: "a@example.com", action: "dnc.add", after: "+12124563210" }, dnc)).toBe("a@example.com added (212) 456-3210 to [the Do-Not-Call list]");
    expect(sentence({ actor: "a@example.com", action: "dnc.upload_add", after: JSON.stringify({ file: "federal.txt", changed: 12345 }) }, dnc)).toBe(
      "a@example.com added 12,345 numbers to [the Do-Not-Call list] from federal.txt",
    );
    expect(sentence({ actor: "system", action: "campaign.started", after: JSON.stringify({ planned: 1 }) }, alert)).toBe("The site began sending the alert [Fed day] to 1 recipient");
    expect(sentence({ actor: "a@example.com", action: "campaign.test_sent", after: JSON.stringify({ to: "+12125550147" }) }, alert)).toBe(
      "a@example.com texted a test of the alert [Fed day] to (212) 555-0147",
    );
  });

  it("says which ad cost was entered, imported, changed or removed, and for how much", () => {
    const costs: AuditSubject = { noun: "the ad costs", href: "/admin/analytics/costs" };
    const key = { day: "2026-11-20", source: "newsmax", campaign: "fall", subId: "A-7" };
    const cost = (amount: string) => JSON.stringify({ ...key, amount });
    expect(sentence({ actor: "a@example.com", action: "ad_cost.set", after: cost("120.50") }, costs)).toBe(
      "a@example.com entered $120.50 for newsmax / fall / sub-id A-7 on 2026-11-20 in [the ad costs]",
    );
    expect(sentence({ actor: "a@example.com", action: "ad_cost.import", before: cost("100.00"), after: cost("120.50") }, costs)).toBe(
      "a@example.com imported $120.50 for newsmax / fall / sub-id A-7 on 2026-11-20 in [the ad costs] (was $100.00)",
    );
    expect(sentence({ actor: "a@example.com", action: "ad_cost.delete", before: JSON.stringify({ day: "2026-11-20", source: "newsmax", campaign: "", subId: "", amount: "9.99" }) }, costs)).toBe(
      "a@example.com removed the cost of newsmax on 2026-11-20 ($9.99) from [the ad costs]",
    );
  });

  it("says which old address now goes where, and how many an import added (decision 160)", () => {
    const redirects: AuditSubject = { noun: "the redirects", href: "/admin/redirects" };
    expect(sentence({ actor: "ed@example.com", action: "redirect.saved", after: JSON.stringify({ path: "/?p=12", target: "/articles/a" }) }, redirects)).toBe(
      "ed@example.com sent /?p=12 on to /articles/a in [the redirects]",
    );
    expect(
      sentence({ actor: "ed@example.com", action: "redirect.saved", before: JSON.stringify({ path: "/old", target: "/articles/a" }), after: JSON.stringify({ path: "/old", target: "/articles/b" }) }, redirects),
    ).toBe("ed@example.com sent /old on to /articles/b in [the redirects] (it went to /articles/a)");
    expect(sentence({ actor: "ed@example.com", action: "redirect.deleted", before: JSON.stringify({ path: "/old", target: "/articles/b" }) }, redirects)).toBe("ed@example.com removed /old from [the redirects]");
    expect(sentence({ actor: "import", action: "redirect.imported", after: JSON.stringify({ written: 20000 }) }, redirects)).toBe("The article import added 20,000 old addresses to [the redirects]");
  });

  it("still says something for an action without a phrasing, and for odd stored values", () => {
    expect(sentence({ actor: "bench", action: "bench.change" }, { noun: "bench" })).toBe("bench bench change on [bench]");
    expect(sentence({ actor: null, action: "dnc.upload_remove", after: "not json" }, dnc)).toBe("Someone removed numbers from [the Do-Not-Call list]");
    expect(sentence({ actor: "a@example.com", action: "user.role", before: "{", after: null }, person)).toBe("a@example.com changed the role of [ann@example.com] from reader to reader");
  });

  it("names the parts of the site and the commands that act on their own", () => {
    expect(describeActor("system")).toBe("The site");
    expect(describeActor("setup")).toBe("The setup page");
    expect(describeActor("admin:create")).toBe("The admin:create command");
    expect(describeActor("ann@example.com")).toBe("ann@example.com");
  });

  it("says a change came from the command line, which command and who ran it", () => {
    expect(describeActor(commandLineActor("dnc:import", "ops"))).toBe("The dnc:import command (run by ops)");
    expect(describeActor(commandLineActor("db:import", ""))).toBe("The db:import command");
    const database: AuditSubject = { noun: "the database" };
    const restored = { actor: commandLineActor("db:import", "ops"), action: "database.import", after: JSON.stringify({ file: "backup.jsonl.gz", rows: 20431, tables: 41 }) };
    expect(sentence(restored, database)).toBe("The db:import command (run by ops) loaded 20,431 rows into [the database] from backup.jsonl.gz");
    const created = { actor: commandLineActor("admin:create", "ops"), action: "user.create_admin" };
    expect(sentence(created, person)).toBe("The admin:create command (run by ops) created the admin account [ann@example.com]");
  });

  it("formats only US numbers in E.164", () => {
    expect(formatStoredPhone("+12124563210")).toBe("(212) 456-3210");
    expect(formatStoredPhone("+442071234567")).toBe("+442071234567");
  });

  it("has exactly one {subject} in every phrasing", () => {
    for (const [action, phrase] of Object.entries(AUDIT_PHRASES)) {
      expect(phrase({ before: null, after: null }).split("{subject}"), action).toHaveLength(2);
    }
  });
});

/** Every file (not tests, not benchmarks) under `dir` that writes to the audit log. */
function auditWriters(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "bench" || name === "node_modules" ? [] : auditWriters(path);
    if (!/\.(ts|tsx)$/.test(name) || name.includes(".test.")) return [];
    const source = readFileSync(path, "utf8");
    return /insert\(auditLog\)|INSERT INTO audit_log/.test(source) ? [path] : [];
  });
}

/** String literals an expression may evaluate to (both branches of a ternary, not its condition). */
function literals(expression: string) {
  const branches = expression.includes("?") ? expression.slice(expression.indexOf("?") + 1).split(":") : [expression];
  return branches.flatMap((branch) => [...branch.matchAll(/"([a-z_.]+)"/g)].map((m) => m[1]!));
}

/** The actions a file writes: literal `action:` values, and those of a local helper that prefixes its argument. */
function actionsWrittenBy(source: string): string[] {
  const found = [...source.matchAll(/action:\s*([^,]+?),\s*entity/g)].flatMap((m) => literals(m[1]!));
  const prefix = /action:\s*`(\w+)\.\$\{action\}`/.exec(source)?.[1];
  if (prefix) {
    for (const call of source.matchAll(/\baudit\(\s*[\w.]+,\s*[\w."]+,\s*([^,]+?),/g)) {
      const argument = call[1]!;
      if (argument === "input.action") {
        // The campaign controls: every key of the transitions table.
        const table = /const TRANSITIONS = \{([\s\S]*?)\} as const/.exec(source)?.[1] ?? "";
        found.push(...[...table.matchAll(/(\w+): \{ from/g)].map((m) => `${prefix}.${m[1]}`));
      } else {
        found.push(...literals(argument).map((name) => `${prefix}.${name}`));
      }
    }
  }
  return found.filter((name) => /^[a-z_]+\.[a-z_]+$/.test(name));
}

describe("every audit action the code writes", () => {
  const writers = [...auditWriters("app"), ...auditWriters("scripts"), ...auditWriters("server")];
  const written = new Set(writers.flatMap((path) => actionsWrittenBy(readFileSync(path, "utf8"))));

  it("is found in the code (the scan works)", () => {
    expect(writers.length).toBeGreaterThan(10);
    for (const action of ["user.role", "article.published", "campaign.pause", "campaign.started", "article.published_on_schedule", "newsletter.send_now", "dnc.upload_add", "database.import"]) expect(written).toContain(action);
  });

  it("has a phrasing", () => {
    expect([...written].filter((action) => !AUDIT_PHRASES[action]).sort()).toEqual([]);
  });
});
