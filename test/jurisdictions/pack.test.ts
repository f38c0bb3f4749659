/**
 * The shipped jurisdiction rule packs are data a compliance lead reads and cites: each is valid
 * against schemas/jurisdiction-pack.schema.json, and every rule carries its citation, its link and
 * the date it was checked. The pack check refuses a rule without them (and the schema does too).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkPack,
  chosenRules,
  SHIPPED_PACKS,
  STATE_CODES,
  stateOf,
} from "../../src/jurisdictions/index.js";
import { shapeValidator } from "../helpers/cached-validator.js";

const PACKS = new URL("../../src/jurisdictions/packs/", import.meta.url);
const files = readdirSync(PACKS).filter((f) => f.endsWith(".json"));
const schema = JSON.parse(
  readFileSync(new URL("../../schemas/jurisdiction-pack.schema.json", import.meta.url), "utf8"),
);
// Compiled once (any worker, any pass), then loaded from the tests' validator cache.
const validate = shapeValidator("jurisdiction-pack", schema, {
  ajv: { allErrors: true, strict: true },
  formats: false,
});
const shipped = (file: string) =>
  JSON.parse(readFileSync(new URL(file, PACKS), "utf8")) as { rules: Record<string, unknown>[] };

describe("the shipped packs", () => {
  it("are the packs the code loads, one per file", () => {
    expect(files.length).toBeGreaterThan(0);
    expect([...SHIPPED_PACKS.keys()].sort()).toEqual(files.map((f) => f.replace(/\.json$/, "")).sort());
  });

  it.each(files)("%s is valid against the pack schema and the pack check", (file) => {
    const data = shipped(file);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(checkPack(data).problems).toEqual([]);
  });

  it.each(files)("%s: every rule has a citation, a link and a checked date", (file) => {
    for (const rule of shipped(file).rules) {
      expect(rule.citation, String(rule.id)).toMatch(/\S/);
      expect(rule.link, String(rule.id)).toMatch(/^https?:\/\//);
      expect(rule.checked, String(rule.id)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("holds the states the research confirmed, and a rule for every day of Texas's and Rhode Island's week", () => {
    const pack = SHIPPED_PACKS.get("us-state-hours");
    expect([...new Set(pack?.rules.map((r) => r.state))].sort()).toEqual([
      "FL",
      "MS",
      "OK",
      "RI",
      "SD",
      "TX",
      "WA",
    ]);
    for (const state of ["TX", "RI"])
      expect(
        pack?.rules
          .filter((r) => r.state === state)
          .flatMap((r) => r.days)
          .sort(),
      ).toEqual(["fri", "mon", "sat", "sun", "thu", "tue", "wed"]);
    expect(pack?.rules.find((r) => r.id === "FL-hours")).toMatchObject({
      hours: { from: "08:00", to: "20:00" },
      citation: "Fla. Stat. § 501.616(6)(a)",
    });
  });

  it("every state's zones are IANA zones, Florida is Eastern and Central", () => {
    expect(STATE_CODES).toHaveLength(56);
    expect(stateOf("FL").zones).toEqual(["America/New_York", "America/Chicago"]);
    for (const code of STATE_CODES)
      for (const zone of stateOf(code).zones)
        expect(Intl.DateTimeFormat(undefined, { timeZone: zone }).resolvedOptions().timeZone).toBeTruthy();
  });
});

describe("a rule without its citation or checked date is refused", () => {
  const base = shipped("us-state-hours.json");
  const withRule = (edit: (rule: Record<string, unknown>) => Record<string, unknown>) => ({
    ...base,
    rules: base.rules.map((r, i) => (i === 0 ? edit({ ...r }) : r)),
  });
  const without = (key: string) =>
    withRule((r) => {
      delete r[key];
      return r;
    });

  it.each([
    ["citation", "rule 1 (FL-hours): no citation (every rule cites its statute)"],
    ["checked", "rule 1 (FL-hours): no checked date (YYYY-MM-DD: when the rule was last checked)"],
    ["link", "rule 1 (FL-hours): no link to the statute's text"],
  ])("without %s: %s", (key, problem) => {
    const data = without(key);
    expect(checkPack(data).problems).toEqual([problem]);
    expect(validate(data)).toBe(false);
    expect(validate.errors?.map((e) => e.params)).toContainEqual({ missingProperty: key });
  });

  it.each([
    ["a blank citation", { citation: "  " }, "rule 1 (FL-hours): no citation (every rule cites its statute)"],
    [
      "a checked date that is no date",
      { checked: "last spring" },
      "rule 1 (FL-hours): no checked date (YYYY-MM-DD: when the rule was last checked)",
    ],
    ["an unknown state", { state: "XX" }, 'rule 1 (FL-hours): state "XX" is not a known state code'],
    [
      "hours that end before they start",
      { hours: { from: "20:00", to: "08:00" } },
      "rule 1 (FL-hours): hours must be null (no message that day) or {from, to} with from before to",
    ],
    ["no days", { days: [] }, "rule 1 (FL-hours): days must be a non-empty list of distinct mon ... sun"],
  ])("%s", (_name, change, problem) => {
    expect(checkPack(withRule((r) => ({ ...r, ...change }))).problems).toEqual([problem]);
  });

  it("two rules of a state for one day", () => {
    const pack = withRule((r) => r);
    const twice = { ...pack, rules: [...pack.rules, { ...pack.rules[0], id: "FL-again" }] };
    expect(checkPack(twice).problems).toContain("rule FL-again: FL already has a commercial rule for mon");
  });
});

describe("the kind of the policy's messages chooses the rules", () => {
  const pack = SHIPPED_PACKS.get("us-state-hours");
  it("political: none of the shipped rules (every one speaks of commercial solicitation); commercial and all: every one", () => {
    if (pack === undefined) throw new Error("no pack");
    expect(chosenRules([pack], "political")).toEqual([]);
    expect(chosenRules([pack], "commercial")).toEqual(pack.rules);
    expect(chosenRules([pack], "all")).toEqual(pack.rules);
  });
});
