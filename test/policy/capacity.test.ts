/**
 * src/policy/capacity.ts, the pure combination: policy capacity + campaign files' capacity ->
 * capacity in force + diagnostics. A file may only tighten (lower cap, slower throughput); a looser
 * value is policy.capacity-loosened at the file's value with the policy's in `related`, and the
 * policy's value holds. Policy files combine the same way as floors.
 */
import { describe, expect, test } from "vitest";
import type { CapacitySpec } from "../../src/campaign/model.js";
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";
import { capacityInForce, combinePolicyCapacity } from "../../src/policy/capacity.js";
import type { PolicyCapacity } from "../../src/policy/model.js";
import { parsePolicy } from "../../src/policy/parse.js";

const at = (file: string, line: number): SourceRange => ({
  file,
  start: { line, column: 1, offset: 0 },
  end: { line, column: 2, offset: 1 },
});

/** A campaign file's capacity; `locate` points at line 1 of brands, 2 of throughput. */
function spec(
  file: string,
  brands: Record<string, number | null>,
  throughput: CapacitySpec["throughput"] = {},
) {
  return {
    brands: Object.fromEntries(Object.entries(brands).map(([b, dailyCap]) => [b, { dailyCap }])),
    throughput,
    locate: (path) => at(file, path[0] === "brands" ? 1 : 2),
  } satisfies CapacitySpec;
}

function policy(text: string, file = "campaignctl.policy.yaml"): PolicyCapacity {
  const parsed = parsePolicy(file, `version: 1\nrules: {}\n${text}`);
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join("\n"));
  return parsed.policy.capacity;
}

const ROOT = policy(
  "capacity:\n  brands:\n    R: {daily_cap: 30}\n    N: {daily_cap: none}\n  throughput: {10dlc: 75}\n",
);

describe("capacityInForce", () => {
  test("the policy's capacity, with no file declaring any", () => {
    expect(capacityInForce(ROOT, [undefined])).toEqual({
      capacity: {
        brands: { R: 30, N: null },
        throughput: { "10dlc": 75 },
        policyThroughput: { "10dlc": 75 },
      },
      diagnostics: [],
    });
  });

  test("no policy: the files' capacity as declared", () => {
    const { capacity, diagnostics } = capacityInForce(undefined, [
      spec("a.yaml", { R: 100 }, { "toll-free": 9 }),
    ]);
    expect(capacity).toEqual({ brands: { R: 100 }, throughput: { "toll-free": 9 }, policyThroughput: {} });
    expect(diagnostics).toEqual([]);
  });

  test.each<[string, CapacitySpec, Record<string, number | null>, number]>([
    ["a lower cap tightens", spec("a.yaml", { R: 20 }), { R: 20, N: null }, 75],
    [
      "a cap under a brand the policy has none for is added",
      spec("a.yaml", { S: 5 }),
      { R: 30, N: null, S: 5 },
      75,
    ],
    ["a cap where the policy says none tightens", spec("a.yaml", { N: 10 }), { R: 30, N: 10 }, 75],
    ["a slower throughput tightens", spec("a.yaml", {}, { "10dlc": 0.5 }), { R: 30, N: null }, 0.5],
    ["an equal value is fine", spec("a.yaml", { R: 30 }, { "10dlc": 75 }), { R: 30, N: null }, 75],
  ])("%s", (_, file, brands, throughput) => {
    const { capacity, diagnostics } = capacityInForce(ROOT, [file]);
    expect(diagnostics).toEqual([]);
    expect(capacity.brands).toEqual(brands);
    expect(capacity.throughput["10dlc"]).toBe(throughput);
    // The fastest a send may go stays the policy's, whatever the file says.
    expect(capacity.policyThroughput).toEqual({ "10dlc": 75 });
  });

  test.each<[string, CapacitySpec, string, number]>([
    [
      "a higher cap",
      spec("a.yaml", { R: 100_000 }),
      "a.yaml declares daily_cap 100000 for brand `R`, looser than the policy's 30",
      1,
    ],
    [
      "no cap where the policy has one",
      spec("a.yaml", { R: null }),
      "a.yaml declares daily_cap none for brand `R`",
      1,
    ],
    [
      "a faster throughput",
      spec("a.yaml", {}, { "10dlc": 1000 }),
      "a.yaml declares a 10dlc throughput of 1000 segments a minute, looser than the policy's 75",
      2,
    ],
  ])("%s is policy.capacity-loosened, and the policy's value holds", (_, file, message, line) => {
    const { capacity, diagnostics } = capacityInForce(ROOT, [file]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      severity: "error",
      code: "policy.capacity-loosened",
      range: { file: "a.yaml", start: { line } },
      related: [
        { message: "campaignctl.policy.yaml declares it here", range: { file: "campaignctl.policy.yaml" } },
      ],
    });
    expect(diagnostics[0]?.message).toContain(message);
    expect(diagnostics[0]?.hint).toContain("change it in the policy file");
    expect(capacity.brands.R).toBe(30);
    expect(capacity.throughput["10dlc"]).toBe(75);
  });

  test("two files that differ: the smaller, a conflict warning; one declaration shared by projects counts once", () => {
    const a = spec("a.yaml", { R: 20 });
    const b = spec("b.yaml", { R: 25 });
    const { capacity, diagnostics } = capacityInForce(ROOT, [a, a, b]);
    expect(capacity.brands.R).toBe(20);
    expect(diagnostics.map((d) => [d.severity, d.code, d.range?.file])).toEqual([
      ["warning", "forecast.capacity-conflict", "b.yaml"],
    ]);
  });
});

describe("combinePolicyCapacity (policy files as floors)", () => {
  test("a nearer policy may add and tighten; a looser value is refused, the farther holds", () => {
    const near = policy(
      "capacity:\n  brands:\n    R: {daily_cap: 50}\n    S: {daily_cap: 7}\n  throughput: {10dlc: 60}\n",
      "campaigns/campaignctl.policy.yaml",
    );
    const { capacity, diagnostics } = combinePolicyCapacity([ROOT, near]);
    expect(Object.fromEntries(Object.entries(capacity.brands).map(([b, e]) => [b, e.value]))).toEqual({
      R: 30,
      N: null,
      S: 7,
    });
    expect(capacity.throughput["10dlc"]?.value).toBe(60);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: "policy.capacity-loosened",
      range: { file: "campaigns/campaignctl.policy.yaml", start: { line: 5 } },
      related: [{ range: { file: "campaignctl.policy.yaml", start: { line: 5 } } }],
    });
    expect(diagnostics[0]?.message).toContain(
      "campaigns/campaignctl.policy.yaml declares daily_cap 50 for brand `R`, looser than campaignctl.policy.yaml's 30",
    );
  });

  test("the policy file's capacity is checked by its schema", () => {
    const bad = parsePolicy("p.yaml", "version: 1\nrules: {}\ncapacity:\n  brands:\n    R: {daily_cap: 0}\n");
    expect(bad.ok).toBe(false);
    const unknown = parsePolicy("p.yaml", "version: 1\nrules: {}\ncapacity:\n  throughput: {sms: 5}\n");
    expect(unknown.ok).toBe(false);
  });
});
