/**
 * `experiments:` in the campaign files, decoded by the one loader: the experiment the model holds,
 * and what `validate` says of a broken one, code and position (through the CLI as well, with its
 * JSON document checked against its schema).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { campaignFile, where } from "../campaign/helpers.js";
import { runCli } from "../helpers/run-cli.js";

const PROJECTS = `version: 1
projects:
  wording-a:
    id: 11111111-1111-4111-8111-111111111111
  wording-b:
    id: 22222222-2222-4222-8222-222222222222
  the-rest:
    id: 33333333-3333-4333-8333-333333333333
`;

const load = (experiments: string) => assembleCampaign([campaignFile("c.yaml", `${PROJECTS}${experiments}`)]);
const codes = (experiments: string) =>
  load(experiments)
    .diagnostics.filter((d) => d.code.startsWith("experiment.") || d.severity === "error")
    .map(where);

describe("experiments: in the campaign files", () => {
  test("an experiment is decoded with its arms, metric, sample, brake, holdout and positions", () => {
    const loaded = load(`experiments:
  gotv-wording:
    arms: [wording-a, wording-b]
    metric: reply_rate
    min_sample: 1500
    brake: {max_opt_out_rate: 0.05}
    holdout: the-rest
`);
    expect(loaded.diagnostics).toEqual([]);
    const [e] = loaded.campaign.experiments ?? [];
    expect(e).toMatchObject({
      name: "gotv-wording",
      file: "c.yaml",
      arms: ["wording-a", "wording-b"],
      metric: "reply_rate",
      minSample: 1500,
      brake: { maxOptOutRate: 0.05 },
      holdout: "the-rest",
    });
    expect(e?.range.start).toMatchObject({ line: 10, column: 3 });
    expect(e?.armRanges.map((r) => [r.start.line, r.start.column])).toEqual([
      [11, 12],
      [11, 23],
    ]);
    expect(e?.holdoutRange?.start).toMatchObject({ line: 15, column: 14 });
  });

  const CASES: readonly [string, string, readonly string[]][] = [
    [
      "one arm",
      "arms: [wording-a]\n    metric: reply_rate\n    min_sample: 10",
      ["experiment.too-few-arms@11:12"],
    ],
    [
      "an arm twice",
      "arms: [wording-a, wording-a]\n    metric: reply_rate\n    min_sample: 10",
      ["experiment.arm-repeated@11:23"],
    ],
    [
      "an unknown metric",
      "arms: [wording-a, wording-b]\n    metric: replies_rate\n    min_sample: 10",
      ["experiment.metric-unknown@12:13"],
    ],
    [
      "an unknown arm",
      "arms: [wording-a, wording-c]\n    metric: reply_rate\n    min_sample: 10",
      ["experiment.unknown-arm@11:23"],
    ],
    [
      "an unknown holdout",
      "arms: [wording-a, wording-b]\n    metric: reply_rate\n    min_sample: 10\n    holdout: the-rst",
      ["experiment.unknown-holdout@14:14"],
    ],
    [
      "a holdout that is an arm",
      "arms: [wording-a, wording-b]\n    metric: reply_rate\n    min_sample: 10\n    holdout: wording-b",
      ["experiment.holdout-is-arm@14:14"],
    ],
  ];
  test.each(CASES)("%s", (_name, body, expected) => {
    const text = `experiments:\n  e:\n    ${body}\n`;
    expect(codes(text)).toEqual(expected);
    expect(load(text).campaign.experiments).toBeUndefined();
  });

  test("did you mean, for a metric and an arm", () => {
    const messages = load(`experiments:
  e:
    arms: [wording-a, wordng-b]
    metric: click-rate
    min_sample: 10
`).diagnostics.map((d) => d.message);
    expect(messages.join("\n")).toContain("did you mean `click_rate`?");
  });

  test("a project in two experiments, and a name in two files", () => {
    const first = campaignFile(
      "a.yaml",
      `${PROJECTS}experiments:\n  e:\n    arms: [wording-a, wording-b]\n    metric: reply_rate\n    min_sample: 10\n`,
    );
    const second = campaignFile(
      "b.yaml",
      `version: 1\nprojects:\n  wording-c:\n    id: 44444444-4444-4444-8444-444444444444\nexperiments:\n  e:\n    arms: [wording-a, wording-c]\n    metric: reply_rate\n    min_sample: 10\n  f:\n    arms: [wording-c, wording-b]\n    metric: reply_rate\n    min_sample: 10\n`,
    );
    const loaded = assembleCampaign([first, second]);
    expect(loaded.diagnostics.map((d) => `${d.range?.file}:${where(d)}`)).toEqual([
      "b.yaml:experiment.duplicate-name@6:3",
      "b.yaml:experiment.arm-shared@11:23",
    ]);
    expect(loaded.campaign.experiments?.map((e) => e.name)).toEqual(["e"]);
  });

  test("schema: a missing min_sample and a brake without a rate are schema errors, the experiment left out", () => {
    const loaded = load(
      "experiments:\n  e:\n    arms: [wording-a, wording-b]\n    metric: reply_rate\n    brake: {}\n",
    );
    expect(loaded.diagnostics.filter((d) => d.severity === "error").length).toBeGreaterThanOrEqual(2);
    expect(loaded.campaign.experiments).toBeUndefined();
  });

  test("validate --format json reports the codes at their positions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "experiments-validate-"));
    writeFileSync(
      join(dir, "c.yaml"),
      `${PROJECTS}experiments:\n  e:\n    arms: [wording-a, wording-z]\n    metric: reply_rate\n    min_sample: 10\n`,
    );
    const run = await runCli(["validate", "c.yaml", "--format", "json"], { cwd: dir });
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as {
      diagnostics: { code: string; range: { start: { line: number } } }[];
    };
    expect(doc.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ["experiment.unknown-arm", 11],
    ]);
  });
});
