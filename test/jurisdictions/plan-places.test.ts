/**
 * Issue 37's acceptance for where the recipients are, against a sandbox of the example world over
 * loopback: a list declared in Florida (Eastern and Central) with a send at 19:45 Eastern whose
 * forecast runs 40 minutes is an error naming Florida's rule and its citation, at the project's
 * schedule line, with the latest start that fits, and its test and schedule are held; the same send
 * at 19:00 passes; a Texas list on a Sunday at 10:00 is an error; `require_places` is an error at the
 * list reference; the plan shows each project's audience with its places. No clock is read: the
 * sandbox's is frozen before the sends.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { documentOf, schemaErrors } from "../helpers/schemas.js";
import { PARENT_KEY, sandbox } from "../sandbox/helpers.js";

interface Finding {
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly range?: { readonly file: string; readonly start: { readonly line: number } };
}

interface PlanDoc {
  readonly forecast?: {
    readonly projects: readonly {
      readonly address: string;
      readonly start: string;
      readonly finish: string | null;
    }[];
  };
  readonly projects: readonly {
    readonly address: string;
    readonly diagnostics: readonly Finding[];
    readonly audience: {
      readonly places?: {
        readonly contact_lists: readonly { readonly declared: boolean; readonly states: readonly string[] }[];
        readonly zones: readonly string[];
      };
    } | null;
    readonly actions: readonly {
      readonly id: string;
      readonly status: string;
      readonly block?: { readonly codes: readonly string[] };
    }[];
  }[];
}

const POLICY = "examples/campaignctl.policy.yaml";
const GOTV = "examples/gotv.yaml";

/** The segments a minute that make the reminder's send (recipients x segments) last 40 minutes. */
let segmentsAMinute = 0;

/**
 * The reminder's message made two segments long (38 recipients of one segment cannot take 40
 * minutes at the slowest throughput a policy may declare, 1 segment a minute).
 */
function longer(gotv: string): string {
  return gotv.replace(
    "at {{polling_place|your polling place}}. Reply STOP to opt out\n",
    "at {{polling_place|your polling place}}. Bring a photo ID and your sample ballot, and ask a neighbour to come along. Reply STOP to opt out\n",
  );
}

/**
 * The examples in a temp dir, the reminder scheduled at `at` in `zone`, the policy declaring
 * `places` and the `jurisdictions` rule over every kind of message; no cap to pause the send, and
 * the policy's own send_window left out (so that the state rule alone is judged).
 */
function examples(
  at: string,
  zone: string,
  places: string,
  rules = "  jurisdictions: {packs: [us-state-hours], messages: all}\n",
): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-places-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  const policy = join(cwd, POLICY);
  const text = readFileSync(policy, "utf8")
    .replace("{daily_cap: 30}", "{daily_cap: none}")
    .replace(/throughput: \{10dlc: 75\}/, `throughput: {10dlc: ${segmentsAMinute}}`)
    .replace(/^ {2}send_window: .*\n/m, "")
    .replace(/^rules:\n/m, `places:\n${places}rules:\n${rules}`);
  writeFileSync(policy, text);
  const gotv = join(cwd, GOTV);
  writeFileSync(
    gotv,
    longer(readFileSync(gotv, "utf8")).replace(
      'at: "2026-12-07T10:00:00-06:00"\n      timezone: America/Chicago',
      `at: "${at}"\n      timezone: ${zone}`,
    ),
  );
  return cwd;
}

const FLORIDA = "  Riverside Democrats:\n    Ward 3 Likely Voters: {states: [FL]}\n";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandbox({ rateLimits: true });
  if (segmentsAMinute === 0) {
    // The reminder's size, read from a plan of the untouched examples: 40 minutes at this throughput.
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-places-size-"));
    cpSync("examples", join(cwd, "examples"), { recursive: true });
    writeFileSync(join(cwd, GOTV), longer(readFileSync(join(cwd, GOTV), "utf8")));
    const r = await cli(cwd, "plan", "examples/", "--json");
    const plan = JSON.parse(r.stdout) as {
      projects: { address: string; estimate: { recipients: number; segments: number } }[];
    };
    const e = plan.projects.find((p) => p.address === "gotv-reminder")?.estimate;
    expect(e?.segments).toBe(2);
    segmentsAMinute = ((e?.recipients ?? 0) * (e?.segments ?? 0)) / 40;
  }
});
afterEach(async () => {
  await sb.close();
});

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

async function plan(cwd: string): Promise<{ readonly code: number; readonly plan: PlanDoc }> {
  const r = await cli(cwd, "plan", "examples/", "--json", "--detailed-exitcode");
  const doc = JSON.parse(r.stdout) as unknown;
  expect(schemaErrors("plan", doc).join("\n"), r.stdout.slice(0, 3000)).toBe("");
  return { code: r.code, plan: doc as PlanDoc };
}

const reminder = (p: PlanDoc) => p.projects.find((x) => x.address === "gotv-reminder");
const lineOf = (cwd: string, file: string, needle: string) =>
  readFileSync(join(cwd, file), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(needle)) + 1;

describe("a Florida list under the policy's jurisdictions", () => {
  test("19:45 Eastern for 40 minutes: an error naming Florida's rule and citation, at the schedule line, with the latest start that fits; the send is held", async () => {
    const cwd = examples("2026-12-07T19:45:00-05:00", "America/New_York", FLORIDA);
    const { code, plan: doc } = await plan(cwd);
    expect(code).toBe(3);
    const p = reminder(doc);
    const course = doc.forecast?.projects.find((f) => f.address === "gotv-reminder");
    expect(Date.parse(course?.finish ?? "") - Date.parse(course?.start ?? "")).toBe(40 * 60_000);
    const errors = (p?.diagnostics ?? []).filter((d) => d.code === "policy.jurisdictions");
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(error?.severity).toBe("error");
    expect(error?.message).toContain("Florida's rule FL-hours");
    expect(error?.message).toContain("Fla. Stat. § 501.616(6)(a)");
    expect(error?.message).toContain("from Mon 2026-12-07 20:00 EST in America/New_York");
    expect(error?.range).toMatchObject({
      file: GOTV,
      start: { line: lineOf(cwd, GOTV, 'at: "2026-12-07T19:45:00-05:00"') },
    });
    expect(error?.hint).toContain('the latest start that fits is at: "2026-12-07T19:20:00-05:00"');
    const schedule = p?.actions.find((a) => a.id === "gotv-reminder.schedule");
    expect(schedule?.status).toBe("blocked");
    expect(schedule?.block?.codes).toContain("policy.jurisdictions");
    // The audience says where its recipients are.
    expect(p?.audience?.places).toEqual({
      contact_lists: [{ id: expect.any(String), declared: true, states: ["FL"], zones: [] }],
      zones: ["America/New_York", "America/Chicago"],
    });
    // In words too: the terminal plan names the rule and where the list's recipients are.
    const text = await cli(cwd, "plan", "examples/");
    expect(text.stdout).toContain("Fla. Stat. § 501.616(6)(a)");
    expect(text.stdout).toContain("FL (America/New_York, America/Chicago)");
  });

  test("the same send at 19:00 passes", async () => {
    const cwd = examples("2026-12-07T19:00:00-05:00", "America/New_York", FLORIDA);
    const { plan: doc } = await plan(cwd);
    const p = reminder(doc);
    // (The longer message is drift from the live project: that is the plan's other business.)
    const judged = (p?.diagnostics ?? []).filter((d) => /^(policy|forecast|lint)\./.test(d.code));
    expect(judged).toEqual([]);
    const block = p?.actions.find((a) => a.id === "gotv-reminder.schedule")?.block?.codes ?? [];
    expect(block.filter((c) => c.startsWith("policy."))).toEqual([]);
  });

  test("a Texas list on a Sunday at 10:00 is an error in both of its zones", async () => {
    const texas = "  Riverside Democrats:\n    Ward 3 Likely Voters: {states: [TX]}\n";
    const cwd = examples("2026-12-06T10:00:00-06:00", "America/Chicago", texas);
    const { code, plan: doc } = await plan(cwd);
    expect(code).toBe(3);
    const errors = (reminder(doc)?.diagnostics ?? []).filter((d) => d.code === "policy.jurisdictions");
    expect(errors.map((d) => d.message.match(/in (America\/\w+) it is outside/)?.[1])).toEqual([
      "America/Chicago",
      "America/Denver",
    ]);
    expect(errors[0]?.message).toContain("Texas's rule TX-sun (12:00-21:00 Sun");
    expect(errors[0]?.message).toContain("Tex. Bus. & Com. Code § 301.051");
    expect(errors[0]?.hint).toContain("start between 13:00 CST and 20:20 CST");
  });
});

describe("require_places", () => {
  test("a list the policy does not place is an error at the project's list reference; placed, it passes", async () => {
    const other = "  Riverside Democrats:\n    Some Other List: {zones: [America/Chicago]}\n";
    const cwd = examples("2026-12-07T10:00:00-06:00", "America/Chicago", other, "  require_places: true\n");
    const { code, plan: doc } = await plan(cwd);
    expect(code).toBe(3);
    const [missing] = (reminder(doc)?.diagnostics ?? []).filter((d) => d.code === "policy.require-places");
    expect(missing?.message).toContain(
      'contact list "Ward 3 Likely Voters" of organization "Riverside Democrats" has no declared places',
    );
    // The list is written under the file's defaults: that is where the project's reference is.
    expect(missing?.range).toMatchObject({
      file: GOTV,
      start: { line: lineOf(cwd, GOTV, "- Ward 3 Likely Voters") },
    });
    const placed = examples(
      "2026-12-07T10:00:00-06:00",
      "America/Chicago",
      FLORIDA,
      "  require_places: true\n",
    );
    const ok = await plan(placed);
    expect((reminder(ok.plan)?.diagnostics ?? []).map((d) => d.code)).not.toContain("policy.require-places");
  });
});

describe("validate reads the places too (offline, every worker)", () => {
  test("lint judges the federal hours in the list's zones, the policy its state rule at the start", async () => {
    const losAngeles = "  Riverside Democrats:\n    Ward 3 Likely Voters: {zones: [America/Los_Angeles]}\n";
    const early = examples("2026-12-07T08:30:00-05:00", "America/New_York", losAngeles);
    const r = await runCli(["validate", "examples/", "--json"], { cwd: early, env: {} });
    const doc = documentOf("validate-result", r.stdout) as { diagnostics: Finding[] };
    const quiet = doc.diagnostics.filter((d) => d.code === "lint.quiet-hours");
    expect(quiet.map((d) => d.message)).toEqual([
      "gotv-reminder: sends at Mon 2026-12-07 05:30 PST in America/Los_Angeles (where recipients of its lists live: the policy's places), outside 08:00-21:00 (21:00 itself is quiet)",
    ]);
    const late = examples("2026-12-07T20:30:00-05:00", "America/New_York", FLORIDA);
    const v = await runCli(["validate", "examples/", "--json"], { cwd: late, env: {} });
    expect(v.code).toBe(1);
    const errors = (documentOf("validate-result", v.stdout) as { diagnostics: Finding[] }).diagnostics.filter(
      (d) => d.severity === "error",
    );
    expect(errors.map((d) => d.code)).toEqual(["policy.jurisdictions"]);
    expect(errors[0]?.message).toContain("starts at Mon 2026-12-07 20:30 EST");
  });
});
