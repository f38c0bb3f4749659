/**
 * Capacity belongs to the policy (issue 24 item 2), end to end against the sandbox over loopback.
 * The example policy declares the brand's real daily cap (30; each GOTV send needs 38) and the 10dlc
 * throughput. Under `forecast_errors: [cap-pause]`, no edit of the campaign file under judgement can
 * make `apply` schedule a GOTV send: a higher cap or a faster throughput is refused
 * (policy.capacity-loosened) before any request; a slower throughput still meets the cap at the
 * policy's rate; a cap declared under the brand's id does not loosen the one under its name; and a
 * policy with no capacity leaves the cap unknown (forecast.capacity-unknown), never a pass. Each
 * case starts where the GOTV tests were sent and approved without the rule (done once per file, the
 * sandbox's state and the directory copied for each case), so that a schedule is exactly what
 * the second apply would send (the reminder's, then the follow-up's test and schedule); effects
 * are counted from `/_sandbox/effects`.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { admin, BRAND, GOTV_FOLLOWUP, GOTV_REMINDER, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

const POLICY = "examples/campaignctl.policy.yaml";
const GOTV = "examples/gotv.yaml";

let sb: SandboxHandle;
afterEach(async () => {
  await sb.close();
});

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

const edit = (cwd: string, file: string, change: (text: string) => string) =>
  writeFileSync(join(cwd, file), change(readFileSync(join(cwd, file), "utf8")));

async function effects(): Promise<{ project_id: string; kind: string }[]> {
  return (await admin(sb, "GET", "/effects")).body.data.effects as { project_id: string; kind: string }[];
}

/**
 * The examples, applied without the rule (tests sent, then approved in the dashboard), then given
 * `forecast_errors: [cap-pause]`: made once per file, in a sandbox that keeps its state in a file,
 * and each test starts `sb` from a copy of that state (world, effects, idempotency keys, clock) with
 * a copy of the directory. Returns the directory and the effects so far.
 */
let prepared: { readonly state: string; readonly cwd: string; readonly before: number } | undefined;

async function testedExamples(): Promise<{ cwd: string; before: number }> {
  prepared ??= await prepare();
  const state = join(mkdtempSync(join(tmpdir(), "campaignctl-capacity-state-")), "state.json");
  copyFileSync(prepared.state, state);
  sb = await sandbox({ rateLimits: true, statePath: state });
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-capacity-"));
  cpSync(prepared.cwd, cwd, { recursive: true });
  return { cwd, before: prepared.before };
}

async function prepare(): Promise<{ state: string; cwd: string; before: number }> {
  const state = join(mkdtempSync(join(tmpdir(), "campaignctl-capacity-state-")), "state.json");
  sb = await sandbox({ rateLimits: true, statePath: state });
  try {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-capacity-"));
    cpSync("examples", join(cwd, "examples"), { recursive: true });
    const first = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // The reminder's test went out (the follow-up's waits for the reminder's schedule: `after:`).
    const tested = (await effects()).filter((e) => e.kind === "test").map((e) => e.project_id);
    expect(tested).toContain(GOTV_REMINDER);
    expect((await admin(sb, "POST", `/projects/${GOTV_REMINDER}/approve`)).status).toBe(200);
    edit(cwd, POLICY, (t) => `${t}  forecast_errors: [cap-pause]\n`);
    return { state, cwd, before: (await effects()).length };
  } finally {
    await sb.close();
  }
}

/** A `capacity:` block for the campaign file, put before its `defaults:`. */
const withCapacity = (block: string) => (text: string) =>
  text.replace(/^defaults:\n/m, `${block}defaults:\n`);

const gotvSchedules = async () =>
  (await effects()).filter(
    (e) => e.kind === "schedule" && (e.project_id === GOTV_REMINDER || e.project_id === GOTV_FOLLOWUP),
  );

describe("under forecast_errors, the campaign file cannot raise the capacity it is judged by", () => {
  test("baseline: the policy's cap of 30 holds both GOTV schedules", async () => {
    const { cwd } = await testedExamples();
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[forecast.cap-pause]");
    expect(await gotvSchedules()).toEqual([]);
  });

  test("control: without the rule, the same apply schedules the reminder (so the count can fail)", async () => {
    const { cwd } = await testedExamples();
    edit(cwd, POLICY, (t) => t.replace("  forecast_errors: [cap-pause]\n", ""));
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await gotvSchedules()).map((e) => e.project_id)).toContain(GOTV_REMINDER);
  });

  test.each([
    [
      "a higher daily cap",
      "capacity:\n  brands:\n    Riverside Democrats: {daily_cap: 100000}\n",
      "examples/gotv.yaml declares daily_cap 100000 for brand `Riverside Democrats`, looser than the policy's 30",
    ],
    [
      "no cap at all",
      "capacity:\n  brands:\n    Riverside Democrats: {daily_cap: none}\n",
      "examples/gotv.yaml declares daily_cap none for brand `Riverside Democrats`, looser than the policy's 30",
    ],
    [
      "a faster throughput",
      "capacity:\n  throughput: {10dlc: 100000}\n",
      "examples/gotv.yaml declares a 10dlc throughput of 100000 segments a minute, looser than the policy's 75",
    ],
  ])("%s is refused before any request, naming the policy's value", async (_name, block, message) => {
    const { cwd, before } = await testedExamples();
    edit(cwd, GOTV, withCapacity(block));
    const r = await cli(cwd, "apply", "examples/", "--auto-approve", "--json");
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      diagnostics: {
        code: string;
        message: string;
        range?: { file: string };
        related?: { range: { file: string } }[];
      }[];
    };
    const refusal = doc.diagnostics.find((d) => d.code === "policy.capacity-loosened");
    expect(refusal?.message).toContain(message);
    expect(refusal?.range?.file).toBe(GOTV);
    expect(refusal?.related?.[0]?.range.file).toBe(POLICY);
    expect((await effects()).length).toBe(before);
    // validate says the same, offline.
    const validate = await runCli(["validate", "examples/"], { cwd });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain("error[policy.capacity-loosened]");
  });

  test.each([
    [
      "a slower throughput (a tightening: the cap is still judged at the policy's rate)",
      "capacity:\n  throughput: {10dlc: 1}\n",
      false,
    ],
    [
      "a cap declared under the brand's id",
      `capacity:\n  brands:\n    ${BRAND}: {daily_cap: 100000}\n`,
      false,
    ],
    ["a lower cap (a tightening)", "capacity:\n  brands:\n    Riverside Democrats: {daily_cap: 20}\n", false],
  ])("%s still holds both GOTV schedules", async (_name, block, slowed) => {
    const { cwd } = await testedExamples();
    edit(cwd, GOTV, withCapacity(block));
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[forecast.cap-pause]");
    expect(r.stdout + r.stderr).not.toContain("policy.capacity-loosened");
    if (slowed) expect(r.stdout + r.stderr).toContain("at the fastest throughput a send may go, 10dlc 75");
    expect(await gotvSchedules()).toEqual([]);
  });

  test("a slower throughput that spreads a send over two Pacific days cannot hide its cap pause", async () => {
    const { cwd } = await testedExamples();
    // 23:50 Pacific: at the policy's 75 a minute all 38 go out before midnight (8 over the cap of
    // 30); at the file's 1 a minute, 10 before midnight and 28 after (no pause at that rate).
    edit(cwd, POLICY, (t) => t.replace(/^ {2}send_window: .*\n/m, ""));
    edit(cwd, GOTV, (t) => t.replace('at: "2026-12-07T10:00:00-06:00"', 'at: "2026-12-07T01:50:00-06:00"'));
    edit(cwd, GOTV, withCapacity("capacity:\n  throughput: {10dlc: 1}\n"));
    const r = await cli(cwd, "apply", "examples/", "--auto-approve", "--target", "gotv-reminder");
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain("at the fastest throughput a send may go, 10dlc 75");
    expect(await gotvSchedules()).toEqual([]);
  });

  test("with no capacity declared anywhere, the cap is unknown: an error, never a pass", async () => {
    const { cwd } = await testedExamples();
    edit(cwd, POLICY, (t) => t.replace(/^capacity:\n(?: {2}.*\n)+/m, ""));
    expect(readFileSync(join(cwd, POLICY), "utf8")).not.toMatch(/^capacity:/m);
    const r = await cli(cwd, "apply", "examples/", "--auto-approve", "--json");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("forecast.capacity-unknown");
    const plan = await cli(cwd, "plan", "examples/", "--json");
    const doc = JSON.parse(plan.stdout) as {
      projects: {
        address: string;
        diagnostics: { code: string; severity: string; message: string; related?: unknown[] }[];
        actions: { kind: string; status: string }[];
      }[];
    };
    for (const address of ["gotv-reminder", "gotv-followup"]) {
      const project = doc.projects.find((p) => p.address === address);
      const unknown = project?.diagnostics.find((d) => d.code === "forecast.capacity-unknown");
      expect(unknown, address).toMatchObject({ severity: "error" });
      expect(unknown?.message).toContain("the daily cap of brand `Riverside Democrats` is not declared");
      expect(unknown?.related).toHaveLength(1);
      expect(project?.actions.find((a) => a.kind === "schedule")?.status).toBe("blocked");
    }
    expect(await gotvSchedules()).toEqual([]);
  });
});

describe("under forecast_errors, a cap only the campaign file declares is not known", () => {
  test.each([
    ["a cap of 100000", "capacity:\n  brands:\n    Riverside Democrats: {daily_cap: 100000}\n"],
    ["no cap at all", "capacity:\n  brands:\n    Riverside Democrats: {daily_cap: none}\n"],
    ["a cap under the brand's id", `capacity:\n  brands:\n    ${BRAND}: {daily_cap: 100000}\n`],
  ])(
    "a policy with no capacity, the file declaring %s: capacity-unknown, nothing scheduled",
    async (_n, block) => {
      const { cwd, before } = await testedExamples();
      edit(cwd, POLICY, (t) => t.replace(/^capacity:\n(?: {2}.*\n)+/m, ""));
      edit(cwd, GOTV, withCapacity(block));
      const r = await cli(cwd, "apply", "examples/", "--auto-approve");
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toContain("error[forecast.capacity-unknown]");
      expect(await gotvSchedules()).toEqual([]);
      expect((await effects()).length).toBe(before);
    },
  );

  test("a policy cap under the brand's id holds a file that names the brand and declares more under its name", async () => {
    const { cwd } = await testedExamples();
    edit(cwd, POLICY, (t) =>
      t.replace("    Riverside Democrats: {daily_cap: 30}\n", `    ${BRAND}: {daily_cap: 30}\n`),
    );
    edit(cwd, GOTV, withCapacity("capacity:\n  brands:\n    Riverside Democrats: {daily_cap: 100000}\n"));
    const r = await cli(cwd, "apply", "examples/", "--auto-approve");
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[forecast.cap-pause]");
    expect(r.stdout + r.stderr).not.toContain("forecast.capacity-unknown");
    expect(await gotvSchedules()).toEqual([]);
  });
});
