/**
 * Issue 33 point 4 through `plan` (the sandbox on loopback, three counties with 20 projects each):
 * a template with an accented Spanish variant and 60 instances gives one `lint.non-gsm-character`
 * per character with the 60 instances related, and a policy rule broken by the template's value
 * (`daily_cap_bypass: forbid`, the template's schedule sets it) is one error among the plan's
 * diagnostics, not one under each project, while each project's send stays held by it. The summary
 * counts what is printed, in the JSON document (schema-checked) and in the terminal.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { planCommand } from "../../cli/commands/plan.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf, type Outcome } from "../../cli/output/outcome.js";
import type { DiagnosticJson } from "../../src/diagnostics/json.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { type CountyInstance, countyTemplate, NON_GSM } from "../campaign/county-template.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { runCli } from "../helpers/run-cli.js";
import { buildOrgWorld, type OrgWorld } from "./world.js";

let open: { world: OrgWorld; sb: SandboxHandle }[] = [];
afterEach(async () => {
  for (const b of open) {
    await b.sb.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  open = [];
});

interface PlanDoc {
  readonly diagnostics: readonly DiagnosticJson[];
  readonly projects: readonly {
    readonly address: string;
    readonly diagnostics: readonly DiagnosticJson[];
    readonly actions: readonly { readonly status: string; readonly block?: { readonly codes: string[] } }[];
  }[];
  readonly summary: { readonly errors: number; readonly warnings: number };
}

async function plan(
  world: OrgWorld,
  sb: SandboxHandle,
  json: boolean,
): Promise<{ readonly stdout: string; readonly outcome: Outcome }> {
  let stdout = "";
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", ...Object.fromEntries(world.orgs.map((o) => [o.variable, o.key])) },
    cwd: world.dir,
    clock: () => sb.clock.nowMs(),
  };
  const outcome = await planCommand(
    ["campaign"],
    {
      target: [],
      exclude: [],
      color: false,
      baseUrl: sb.baseUrl,
      refresh: true,
      json,
      detailedExitcode: true,
    },
    io,
    { clock: { now: () => sb.clock.nowMs() }, sleep: (ms: number) => sb.clock.advance(ms) },
  );
  return { stdout, outcome };
}

test("plan: one finding per template value, the 60 instances related, counted once", async () => {
  const world = buildOrgWorld(3, 20);
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: true });
  open.push({ world, sb });
  const instances: CountyInstance[] = world.orgs.flatMap((org) => {
    rmSync(join(world.dir, org.file));
    return org.projects.map((p) => ({
      address: p.address,
      organization: org.name,
      id: p.id,
      extra: `        brand: ${org.name}\n        phone_numbers: ["+1503555${String(org.index).padStart(4, "0")}"]\n`,
    }));
  });
  expect(instances.length).toBe(60);
  const text = countyTemplate(instances, {
    templateKeys: `    channel: 10dlc
    campaign: GOTV 2026
    contact_lists: [Likely Voters]
    suppression_lists: [Do Not Text]
    state: scheduled
    timezone: America/Chicago
    schedule: {local: "2026-12-07T10:00", daily_cap_bypass: true}
`,
  });
  writeFileSync(join(world.dir, "campaign", "gotv.yaml"), text);
  writeFileSync(
    join(world.dir, "campaignctl.policy.yaml"),
    "version: 1\nrules:\n  daily_cap_bypass: forbid\n",
  );

  const { stdout: json, outcome } = await plan(world, sb, true);
  // Its errors are the projects' (held, exit 3 under --detailed-exitcode), not the plan's own (1).
  expect(exitCodeOf(outcome)).toBe(3);
  checkCliDocuments(["plan", "--json"], json, world.dir);
  const doc = JSON.parse(json) as PlanDoc;
  const nonGsm = doc.diagnostics.filter((d) => d.code === "lint.non-gsm-character");
  expect(nonGsm.map((d) => d.related.length)).toEqual(NON_GSM.map(() => 60));
  const bypass = doc.diagnostics.filter((d) => d.code === "policy.daily-cap-bypass");
  expect(bypass.length).toBe(1);
  expect(bypass[0]?.message).toBe(
    "template `gotv` (60 instances): the schedule sets daily_cap_bypass, which the policy forbids",
  );
  expect(bypass[0]?.related.filter((r) => r.message.startsWith("for instance")).length).toBe(60);
  // No project lists it again; each is still held by it.
  for (const p of doc.projects) {
    expect(p.diagnostics.map((d) => d.code)).not.toContain("policy.daily-cap-bypass");
    expect(p.actions.find((a) => a.block !== undefined)?.block?.codes).toContain("policy.daily-cap-bypass");
  }
  const all = [...doc.diagnostics, ...doc.projects.flatMap((p) => p.diagnostics)];
  expect(doc.summary.errors).toBe(all.filter((d) => d.severity === "error").length);
  expect(doc.summary.warnings).toBe(all.filter((d) => d.severity === "warning").length);
  expect(doc.summary.errors).toBeLessThan(5);

  // The terminal: one excerpt for each finding, the instances in one note each.
  const human = (await plan(world, sb, false)).stdout;
  const excerpts = human.split("\n").filter((l) => /^ {2,4}\d+ \| /.test(l));
  const findings = human.split("\n").filter((l) => /(error|warning)\[[a-z-]+\.[a-z0-9-]+\]/.test(l));
  expect(excerpts.length).toBe(findings.length);
  expect(findings.filter((l) => l.includes("[lint.non-gsm-character]")).length).toBe(3);
  expect(findings.filter((l) => l.includes("[policy.daily-cap-bypass]")).length).toBe(1);

  // validate says the same about the policy: one error.
  const validated = await runCli(["validate", "campaign", "--json"], { cwd: world.dir });
  const vdoc = JSON.parse(validated.stdout) as PlanDoc;
  expect(vdoc.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([
    "policy.daily-cap-bypass",
  ]);
});
