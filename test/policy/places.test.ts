/**
 * The policy's `places:` (where each contact list's recipients live) and its `jurisdictions` and
 * `require_places` rules (issue 37): read with their positions, refused at their position when a
 * zone, a state, a key or a pack is wrong, combined as floors (a nearer file adds places, never
 * removes them; keeps every pack and the kind of messages, or `all`), judged offline at a send's
 * start, and shown in the preview.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { placesOfList } from "../../src/jurisdictions/index.js";
import { atLeastAsStrict, combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyViolations } from "../../src/policy/rules.js";
import { campaignFile, where } from "../campaign/helpers.js";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

function policyOf(text: string, file = "campaignctl.policy.yaml") {
  const parsed = parsePolicy(file, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

const PLACES = `version: 1
places:
  Riverside Democrats:
    Ward 3 Likely Voters: {states: [FL]}
    Statewide: {states: [FL, TX], zones: [America/Phoenix]}
  "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02":
    Yolo List: {zones: [America/Los_Angeles]}
rules:
  jurisdictions: {packs: [us-state-hours], messages: commercial}
  require_places: true
`;

describe("reading places and the rules", () => {
  it("reads each list's places, where its key is written, and the rules", () => {
    const policy = policyOf(PLACES);
    expect(
      policy.places?.map((p) => [
        p.organization,
        p.list,
        p.states,
        p.zones,
        `${p.range.start.line}:${p.range.start.column}`,
      ]),
    ).toEqual([
      ["Riverside Democrats", "Ward 3 Likely Voters", ["FL"], [], "4:5"],
      ["Riverside Democrats", "Statewide", ["FL", "TX"], ["America/Phoenix"], "5:5"],
      ["0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02", "Yolo List", [], ["America/Los_Angeles"], "7:5"],
    ]);
    expect(policy.rules.jurisdictions).toEqual({ packs: ["us-state-hours"], messages: "commercial" });
    expect(policy.rules.require_places).toBe(true);
    expect(policy.ranges.jurisdictions?.start).toMatchObject({ line: 9, column: 3 });
  });

  it.each([
    [
      "a zone luxon does not know",
      "places:\n  Org:\n    L: {zones: [America/Gotham]}\nrules: {}\n",
      ["policy.file-invalid@4:17"],
    ],
    [
      "a state that is not one",
      "places:\n  Org:\n    L: {states: [FX]}\nrules: {}\n",
      ["policy.file-invalid@4:18"],
    ],
    [
      "a near-miss key (state for states)",
      "places:\n  Org:\n    L: {state: [FL]}\nrules: {}\n",
      ["policy.file-invalid@4:9"],
    ],
    ["a list with no place", "places:\n  Org:\n    L: {}\nrules: {}\n", ["policy.file-invalid@4:8"]],
    [
      "a pack this campaignctl does not ship",
      "rules:\n  jurisdictions: {packs: [us-state-hour], messages: all}\n",
      ["policy.file-invalid@3:27"],
    ],
    [
      "a pinned version this campaignctl does not ship",
      "rules:\n  jurisdictions: {packs: [us-state-hours@2], messages: all}\n",
      ["policy.file-invalid@3:27"],
    ],
    [
      "a kind of message that is not one",
      "rules:\n  jurisdictions: {packs: [us-state-hours], messages: campaign}\n",
      ["policy.file-invalid@3:54"],
    ],
  ])("refuses %s at its position", (_name, body, expected) => {
    const parsed = parsePolicy("campaignctl.policy.yaml", `version: 1\n${body}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.diagnostics.map(where)).toEqual(expected);
  });

  it("says which packs ship when one is unknown, and which version when a pin differs", () => {
    const unknown = parsePolicy(
      "p.yaml",
      "version: 1\nrules:\n  jurisdictions: {packs: [us-state-hour], messages: all}\n",
    );
    expect(unknown.ok ? [] : unknown.diagnostics.map((d) => d.hint)).toEqual([
      "name a shipped pack: us-state-hours (version 1) (docs/places.md)",
    ]);
    const pinned = parsePolicy(
      "p.yaml",
      "version: 1\nrules:\n  jurisdictions: {packs: [us-state-hours@2], messages: all}\n",
    );
    expect(pinned.ok ? [] : pinned.diagnostics.map((d) => d.message)).toEqual([
      "rules.jurisdictions.packs: the policy pins us-state-hours at version 2, but this campaignctl ships version 1 (checked 2026-11-28): its rules may differ from the ones reviewed",
    ]);
    expect(
      parsePolicy(
        "p.yaml",
        "version: 1\nrules:\n  jurisdictions: {packs: [us-state-hours@1], messages: all}\n",
      ).ok,
    ).toBe(true);
  });

  it("a list is found by any name or id its organization and it go by; two declarations of one list add up", () => {
    const policy = policyOf(`version: 1
places:
  Riverside Democrats:
    Ward 3 Likely Voters: {states: [FL]}
  org-1:
    list-9: {zones: [America/Phoenix]}
rules: {}
`);
    const declared = policy.places ?? [];
    expect(
      placesOfList(declared, ["org-1", "Riverside Democrats"], ["list-9", "Ward 3 Likely Voters"]),
    ).toEqual({
      states: ["FL"],
      zones: ["America/Phoenix"],
    });
    expect(placesOfList(declared, ["Other Org"], ["Ward 3 Likely Voters"])).toBeNull();
    expect(placesOfList(declared, ["Riverside Democrats"], ["ward 3 likely voters"])).toBeNull();
  });
});

describe("combining places and the rules as floors", () => {
  const root = policyOf(PLACES);
  const near = (text: string) => policyOf(`version: 1\n${text}`, "campaigns/campaignctl.policy.yaml");

  it("a nearer file adds places to a list (never removes any): both declarations hold", () => {
    const combined = combinePolicies(
      [root, near("places:\n  Riverside Democrats:\n    Ward 3 Likely Voters: {states: [GA]}\nrules: {}\n")],
      [],
    );
    expect(combined.diagnostics).toEqual([]);
    const places = combined.policy?.places ?? [];
    expect(placesOfList(places, ["Riverside Democrats"], ["Ward 3 Likely Voters"])).toEqual({
      states: ["FL", "GA"],
      zones: [],
    });
  });

  it.each([
    ["the same packs and kind", "{packs: [us-state-hours], messages: commercial}", true],
    ["the pack pinned", "{packs: [us-state-hours@1], messages: commercial}", true],
    ["every rule whatever its kind", "{packs: [us-state-hours], messages: all}", true],
    ["another kind of message", "{packs: [us-state-hours], messages: political}", false],
  ])("jurisdictions: %s is at least as strict: %s", (_name, value, strict) => {
    const next = near(`rules:\n  jurisdictions: ${value}\n`);
    expect(atLeastAsStrict("jurisdictions", next.rules, root.rules)).toBe(strict);
    const combined = combinePolicies([root, next], []);
    expect(combined.diagnostics.map((d) => d.code)).toEqual(strict ? [] : ["policy.loosens-ancestor"]);
  });

  it("require_places: turning it off nearer is loosening; --loosen-policy says so", () => {
    expect(
      combinePolicies([root, near("rules:\n  require_places: false\n")], []).diagnostics.map((d) => d.code),
    ).toEqual(["policy.loosens-ancestor"]);
    const flagged = combinePolicies([root], ["jurisdictions"]);
    expect(flagged.policy?.rules.jurisdictions).toBeUndefined();
    expect(flagged.diagnostics.map((d) => d.message)).toEqual([
      "the policy's jurisdictions is loosened by --loosen-policy: us-state-hours (commercial messages) -> off",
    ]);
  });
});

/** One project `p` of `Riverside Democrats` in gotv.yaml, scheduled at `at` (Eastern). */
function project(
  at: string,
  lists = "[Ward 3 Likely Voters]",
  organization = "organization: Riverside Democrats\n",
): ProjectSpec {
  const text = `version: 1\n${organization}projects:\n  p:\n    id: 9a000000-0000-4000-8000-000000000001\n    message: "Vote Tuesday. Reply STOP to opt out"\n    contact_lists: ${lists}\n    state: scheduled\n    schedule: {at: "${at}", timezone: America/New_York}\n`;
  const spec = assembleCampaign([campaignFile("gotv.yaml", text)]).campaign.projects[0];
  if (spec === undefined) throw new Error("no project");
  return spec;
}

describe("judged offline, at the start (validate)", () => {
  const policy = policyOf(PLACES);
  const offline = { now: null, estimatedCostCents: null };

  it("a Florida list at 20:30 Eastern: Florida's rule, at the schedule line, with the quick fix to the latest start", () => {
    const found = policyViolations(policy, project("2026-12-07T20:30:00-05:00"), offline);
    expect(found.map(where)).toEqual(["policy.jurisdictions@9:20"]);
    expect(found[0]?.fixes).toEqual([
      {
        title: "Start at 19:59 EST, the latest start that fits",
        edit: "replace-value",
        text: "2026-12-07T19:59:00-05:00",
      },
    ]);
  });

  it("require_places: the list's own reference; a file without `organization:` is left to plan", () => {
    const found = policyViolations(
      policy,
      project("2026-12-07T12:00:00-05:00", "[Ward 3 Likely Voters, Ward 4]"),
      offline,
    );
    expect(found.map(where)).toEqual(["policy.require-places@7:43"]);
    expect(policyViolations(policy, project("2026-12-07T12:00:00-05:00", "[Ward 4]", ""), offline)).toEqual(
      [],
    );
  });
});

describe("preview names where each list's recipients are", () => {
  it("as a note of each project, from the policy's places", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-preview-places-"));
    cpSync("examples", join(cwd, "examples"), { recursive: true });
    const policy = join(cwd, "examples/campaignctl.policy.yaml");
    writeFileSync(
      policy,
      readFileSync(policy, "utf8").replace(
        /^rules:\n/m,
        "places:\n  Riverside Democrats:\n    Ward 3 Likely Voters: {states: [FL]}\nrules:\n",
      ),
    );
    const r = await runCli(["preview", "examples/gotv.yaml", "--json", "--now", "2026-12-01T12:00:00Z"], {
      cwd,
      env: {},
    });
    const doc = documentOf("preview-result", r.stdout) as {
      projects: { address: string; notes: string[] }[];
    };
    expect(doc.projects.find((p) => p.address === "gotv-reminder")?.notes).toContain(
      "recipients in: Ward 3 Likely Voters: FL (America/New_York, America/Chicago)",
    );
    const text = await runCli(["preview", "examples/gotv.yaml", "--now", "2026-12-01T12:00:00Z"], {
      cwd,
      env: {},
    });
    expect(text.stdout).toContain(
      "recipients in: Ward 3 Likely Voters: FL (America/New_York, America/Chicago)",
    );
  });
});
