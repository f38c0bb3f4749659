/**
 * The policy's `require_suppression_lists` (issue 37 point 4): suppression lists every test and
 * send must carry, for every organization or per organization, each by name or id. Judged offline
 * on the names as written (validate) and in a plan on every name and id the live lists go by; a
 * project without one is `policy.require-suppression-lists` at its `suppression_lists` key (its key
 * when it has none); combined as a floor; and in `apply`, blocked before any write (the sandbox's
 * effects and request log).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyViolations } from "../../src/policy/rules.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { campaignFile, where } from "../campaign/helpers.js";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import { admin, GOTV_REMINDER, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

function policyOf(text: string, file = "campaignctl.policy.yaml") {
  const parsed = parsePolicy(file, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

/** One project `p` of organization `Riverside Democrats` in gotv.yaml (keys `body`, indented by 4). */
function project(body: string): ProjectSpec {
  const text = `version: 1\norganization: Riverside Democrats\nprojects:\n  p:\n    id: 9a000000-0000-4000-8000-000000000001\n${body
    .trim()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n    message: "Vote Tuesday. Reply STOP to opt out"\n`;
  const assembled = assembleCampaign([campaignFile("gotv.yaml", text)]);
  const errors = assembled.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const spec = assembled.campaign.projects[0];
  if (spec === undefined) throw new Error("no project");
  return spec;
}

const RULE = `version: 1
rules:
  require_suppression_lists:
    all_organizations: [Do Not Text]
    organizations:
      Riverside Democrats: [Strike List]
      Yolo Democrats: [Yolo DNC]
`;

const offline = { now: null, estimatedCostCents: null } as const;

describe("judged offline, on the names as written", () => {
  it.each([
    ["a tested project with none: at its key", "state: tested", ["policy.require-suppression-lists@4:3"]],
    [
      "a scheduled project with one of two: at its suppression_lists key",
      'state: scheduled\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}\nsuppression_lists: [Do Not Text]\ncontact_lists: [Ward 3]',
      ["policy.require-suppression-lists@8:24"],
    ],
    ["both: clean", "state: tested\nsuppression_lists: [Strike List, Do Not Text]", []],
    ["a draft sends nothing", "state: draft", []],
    ["a paused one neither", "state: paused", []],
  ])("%s", (_name, body, expected) => {
    const found = policyViolations(policyOf(RULE), project(body), offline);
    expect(found.map(where)).toEqual(expected);
  });

  it("names the lists missing, the organization and what it carries; the rule in related", () => {
    const [d] = policyViolations(
      policyOf(RULE),
      project("state: tested\nsuppression_lists: [Do Not Text]"),
      offline,
    );
    expect(d?.message).toBe(
      'p: the project tests without the suppression list "Strike List", which the policy requires on every test and send of organization "Riverside Democrats" (it carries "Do Not Text")',
    );
    expect(d?.related?.[0]).toMatchObject({
      message: "the policy's rule require_suppression_lists",
      range: { start: { line: 3, column: 3 } },
    });
  });

  it("another organization's lists are not required; a live id counts like the name", () => {
    const other = project("state: tested\nsuppression_lists: [Do Not Text]");
    const facts = {
      organization: ["Yolo Democrats"],
      lists: [],
      suppressionLists: [["e1000000-0000-4000-8000-000000000003", "Do Not Text"]],
      span: null,
    };
    expect(policyViolations(policyOf(RULE), other, { ...offline, facts }).map((d) => d.message)).toEqual([
      'p: the project tests without the suppression list "Yolo DNC", which the policy requires on every test and send of organization "Yolo Democrats" (it carries "Do Not Text")',
    ]);
    const byId = policyOf(
      "version: 1\nrules:\n  require_suppression_lists: {all_organizations: [e1000000-0000-4000-8000-000000000003]}\n",
    );
    expect(policyViolations(byId, other, { ...offline, facts })).toEqual([]);
    // Offline, the file's own spelling is all there is: the id is not known to be that list.
    expect(policyViolations(byId, other, offline).map(where)).toEqual([
      "policy.require-suppression-lists@7:24",
    ]);
  });

  it.each([
    ["no list", "rules:\n  require_suppression_lists: {}\n", "policy.file-invalid@3:30"],
    [
      "a near-miss key",
      "rules:\n  require_suppression_lists: {all_organisations: [X]}\n",
      "policy.file-invalid@3:31",
    ],
    [
      "an empty list name",
      'rules:\n  require_suppression_lists: {all_organizations: [""]}\n',
      "policy.file-invalid@3:51",
    ],
  ])("a malformed rule is refused at its position: %s", (_name, text, expected) => {
    const parsed = parsePolicy("p.yaml", `version: 1\n${text}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.diagnostics.map(where)).toContain(expected);
  });
});

describe("combined as a floor", () => {
  const farther = policyOf(
    "version: 1\nrules:\n  require_suppression_lists: {organizations: {Riverside Democrats: [Strike List]}}\n",
    "campaignctl.policy.yaml",
  );
  it("a nearer file may require more, or the same list for every organization", () => {
    for (const nearer of [
      "require_suppression_lists: {organizations: {Riverside Democrats: [Strike List, DNC]}}",
      "require_suppression_lists: {all_organizations: [Strike List]}",
    ]) {
      const near = policyOf(`version: 1\nrules:\n  ${nearer}\n`, "campaigns/campaignctl.policy.yaml");
      expect(combinePolicies([farther, near], []).diagnostics).toEqual([]);
    }
  });

  it("dropping a list is loosening: refused without loosens:, and --loosen-policy says so", () => {
    const near = policyOf(
      "version: 1\nrules:\n  require_suppression_lists: {organizations: {Yolo Democrats: [Strike List]}}\n",
      "campaigns/campaignctl.policy.yaml",
    );
    const combined = combinePolicies([farther, near], []);
    expect(combined.diagnostics.map(where)).toEqual(["policy.loosens-ancestor@3:3"]);
    expect(combined.policy?.rules.require_suppression_lists).toEqual({
      organizations: { "Riverside Democrats": ["Strike List"] },
    });
    const flagged = combinePolicies([farther], ["require_suppression_lists"]);
    expect(flagged.diagnostics.map((d) => d.message)).toEqual([
      "the policy's require_suppression_lists is loosened by --loosen-policy: Strike List (Riverside Democrats) -> off",
    ]);
  });
});

describe("against the sandbox: blocked before any write", () => {
  let sb: SandboxHandle;
  beforeEach(async () => {
    sb = await sandbox();
  });
  afterEach(async () => {
    await sb.close();
  });

  const examples = (rule: string): string => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-suppression-"));
    cpSync("examples", join(cwd, "examples"), { recursive: true });
    const policy = join(cwd, "examples", "campaignctl.policy.yaml");
    writeFileSync(policy, `${readFileSync(policy, "utf8")}  require_suppression_lists: ${rule}\n`);
    return cwd;
  };
  const cli = (cwd: string, ...argv: string[]) =>
    runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });
  /** The 1-based line of the example's `suppression_lists:` value (under `defaults:`, column 5). */
  const LINE = readFileSync("examples/gotv.yaml", "utf8").split("\n").indexOf("  suppression_lists:") + 2;

  it("a list the example does not carry: plan blocks the tests and schedules at the defaults' suppression_lists", async () => {
    const cwd = examples("{organizations: {Riverside Democrats: [Strike List]}}");
    const r = await cli(cwd, "plan", "examples/", "--json");
    const plan = documentOf("plan", r.stdout) as {
      projects: {
        address: string;
        actions: { id: string; status: string; block?: { codes: string[] } }[];
        diagnostics: { code: string; range?: { start: { line: number; column: number } } }[];
      }[];
    };
    const reminder = plan.projects.find((p) => p.address === "gotv-reminder");
    expect(
      reminder?.diagnostics.find((d) => d.code === "policy.require-suppression-lists")?.range,
    ).toMatchObject({
      start: { line: LINE, column: 5 },
    });
    expect(reminder?.actions.map((a) => [a.id, a.status, a.block?.codes])).toEqual([
      ["gotv-reminder.test", "blocked", ["policy.require-suppression-lists"]],
      ["gotv-reminder.schedule", "blocked", ["policy.require-suppression-lists"]],
    ]);
    // The pause of early-vote-push is never blocked.
    expect(plan.projects.find((p) => p.address === "early-vote-push")?.actions.map((a) => a.status)).toEqual([
      "planned",
    ]);
  });

  it("apply sends no test and writes nothing for a project without it; by the live id, it goes", async () => {
    const blocked = examples("{all_organizations: [Strike List]}");
    await admin(sb, "DELETE", "/requests");
    const r = await cli(blocked, "apply", "examples/", "--auto-approve");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[policy.require-suppression-lists]");
    const requests = (await admin(sb, "GET", "/requests")).body.data.requests as {
      method: string;
      path: string;
    }[];
    const writes = requests.filter((q) => q.method !== "GET");
    expect(requests.length).toBeGreaterThan(0);
    expect(writes.filter((q) => q.path.includes(GOTV_REMINDER))).toEqual([]);
    const effects = (await admin(sb, "GET", "/effects")).body.data.effects as { project_id: string }[];
    expect(effects.filter((e) => e.project_id === GOTV_REMINDER)).toEqual([]);

    // Control: the example's list, required by its live id (the file says "Do Not Text"): the test goes.
    const allowed = examples("{all_organizations: [e1000000-0000-4000-8000-000000000003]}");
    const ok = await cli(allowed, "apply", "examples/", "--auto-approve");
    expect(ok.stdout + ok.stderr).not.toContain("policy.require-suppression-lists");
    const after = (await admin(sb, "GET", "/effects")).body.data.effects as {
      project_id: string;
      kind: string;
    }[];
    expect(after.filter((e) => e.project_id === GOTV_REMINDER).map((e) => e.kind)).toContain("test");
  });
});
