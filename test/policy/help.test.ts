/**
 * The policy's `require_help` (issue 37 point 3): every project with reply rules (or, `for: sends`,
 * every project that sends) answers HELP and INFO with an answer naming the sender and saying how
 * to stop. Judged at the project with positions; combined as a floor; and `replies run` answers
 * "help" with the required answer exactly once, through the worker's one executor and record.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyViolations } from "../../src/policy/rules.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { campaignFile, where } from "../campaign/helpers.js";
import { runCli } from "../helpers/run-cli.js";
import { answersAfter, CAMPAIGN, campaignDir, runJson, textIn } from "../replies/world.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";

function policyOf(text: string, file = "campaignctl.policy.yaml") {
  const parsed = parsePolicy(file, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

/** One project `p` of Riverside Democrats (keys `body`, indented by 4). */
function project(body: string): ProjectSpec {
  const text = `version: 1\norganization: Riverside Democrats\nprojects:\n  p:\n    id: 9a000000-0000-4000-8000-000000000001\n${body
    .trim()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n`;
  const assembled = assembleCampaign([campaignFile("gotv.yaml", text)]);
  const errors = assembled.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const spec = assembled.campaign.projects[0];
  if (spec === undefined) throw new Error("no project");
  return spec;
}

const offline = { now: null, estimatedCostCents: null } as const;
const HELP_ANSWER = "Riverside Democrats GOTV texts. Reply STOP to opt out.";
const SENDS = 'state: tested\nmessage: "Vote Tuesday. Reply STOP to opt out"';
const REPLIES = (answer: string, keywords = "[help, info]") =>
  `replies:\n  rules:\n    - {name: where, keywords: [polling place], answer: "vote.example.org"}\n    - {name: help, keywords: ${keywords}, answer: "${answer}"}`;

describe("judged at the project", () => {
  const byReplies = policyOf("version: 1\nrules:\n  require_help: {}\n");
  const bySends = policyOf("version: 1\nrules:\n  require_help: {for: sends}\n");
  it.each([
    ["a project with the answer: clean", byReplies, REPLIES(HELP_ANSWER), []],
    ["a project without reply rules, for: replies: not covered", byReplies, SENDS, []],
    [
      "a project that sends without reply rules, for: sends: at its state",
      bySends,
      SENDS,
      ["policy.require-help@6:12"],
    ],
    ["a draft without reply rules, for: sends: sends nothing", bySends, "state: draft", []],
    [
      "no rule answers INFO: at its rules",
      byReplies,
      REPLIES(HELP_ANSWER, "[help]"),
      ["policy.require-help@8:9"],
    ],
    [
      "an answer without the sender: at the answer",
      byReplies,
      REPLIES("GOTV texts. Reply STOP to opt out."),
      ["policy.require-help@9:56"],
    ],
    [
      "an answer without how to stop: at the answer",
      byReplies,
      REPLIES("Riverside Democrats, GOTV."),
      ["policy.require-help@9:56"],
    ],
  ])("%s", (_name, policy, body, expected) => {
    expect(policyViolations(policy, project(body), offline).map(where)).toEqual(expected);
  });

  it("says what the answer lacks, for both words at once; a named sender is required verbatim", () => {
    const [d] = policyViolations(byReplies, project(REPLIES("GOTV texts, 7am-7pm")), offline);
    expect(d?.message).toBe(
      'p: reply rule `help` answers HELP and INFO without the sender\'s name ("Riverside Democrats") or how to stop ("Reply STOP to opt out"), which the policy requires in a HELP answer',
    );
    const named = policyOf('version: 1\nrules:\n  require_help: {sender: "Jane Doe for Council"}\n');
    expect(policyViolations(named, project(REPLIES(HELP_ANSWER)), offline).map((x) => x.message)).toEqual([
      'p: reply rule `help` answers HELP and INFO without the sender\'s name ("Jane Doe for Council"), which the policy requires in a HELP answer',
    ]);
  });

  it("combines as a floor: for: sends over replies; another sender is looser", () => {
    const farther = policyOf('version: 1\nrules:\n  require_help: {for: sends, sender: "Jane Doe"}\n');
    const near = (rule: string) =>
      policyOf(`version: 1\nrules:\n  require_help: ${rule}\n`, "c/campaignctl.policy.yaml");
    expect(combinePolicies([farther, near('{for: sends, sender: "Jane Doe"}')], []).diagnostics).toEqual([]);
    expect(combinePolicies([farther, near('{sender: "Jane Doe"}')], []).diagnostics.map(where)).toEqual([
      "policy.loosens-ancestor@3:3",
    ]);
    expect(
      combinePolicies([farther, near('{for: sends, sender: "Bob"}')], []).diagnostics.map(where),
    ).toEqual(["policy.loosens-ancestor@3:3"]);
  });
});

describe("replies run answers HELP exactly once", () => {
  let sb: SandboxHandle;
  beforeEach(async () => {
    sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 7 });
  });
  afterEach(async () => {
    await sb.close();
  });

  /** The replies world, its GOTV project given a HELP rule, under `require_help`. */
  function world(answer: string): string {
    const gotv = CAMPAIGN.projects["gotv-reminder"];
    const campaign = {
      ...CAMPAIGN,
      projects: {
        ...CAMPAIGN.projects,
        "gotv-reminder": {
          ...gotv,
          replies: {
            ...gotv.replies,
            rules: [...gotv.replies.rules, { name: "help", keywords: ["help", "info"], answer }],
          },
        },
      },
    };
    const dir = campaignDir(campaign);
    writeFileSync(
      join(dir, "campaignctl.policy.yaml"),
      stringify({ version: 1, rules: { require_help: {} } }),
    );
    return dir;
  }

  it("validate: the volunteers project, which has reply rules and no HELP answer, is the error", async () => {
    const cwd = world(HELP_ANSWER);
    const r = await runCli(["validate", "--json", "."], { cwd });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout).diagnostics as { code: string; message: string }[])
      .filter((d) => d.code === "policy.require-help")
      .map((d) => d.message);
    expect(found).toEqual([
      "volunteers: no reply rule answers HELP and INFO, which the policy requires (with the sender's name and how to stop)",
    ]);
  });

  it('answers "help" and "INFO" with the required answer, once each, across two runs', async () => {
    const cwd = world(HELP_ANSWER);
    const help = await textIn(sb, "gotv", 1, "help");
    const info = await textIn(sb, "gotv", 2, "INFO");
    await sb.clock.advance(5_000);
    const run = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(run.code, run.stderr).toBe(0);
    const answered = run.lines.filter((l) => l.type === "inbound" && l.outcome === "answered");
    expect(answered.map((l) => [l.message_id, l.rule])).toEqual(
      expect.arrayContaining([
        [help.messageId, "help"],
        [info.messageId, "help"],
      ]),
    );
    await sb.clock.advance(61_000);
    const again = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(again.code, again.stderr).toBe(0);
    expect(again.lines.filter((l) => l.type === "inbound" && l.outcome === "answered")).toEqual([]);
    expect(answersAfter(sb, help.conversationId, help.messageId)).toEqual([HELP_ANSWER]);
    expect(answersAfter(sb, info.conversationId, info.messageId)).toEqual([HELP_ANSWER]);
  });
});
