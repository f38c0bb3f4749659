/**
 * One plan of every item (issue 33): `plan` of a directory with texting projects, email lists with
 * refused rows, email campaigns and reply rules. The summary line's counts equal the findings and
 * items each view prints (terminal, Markdown, JSON), and the exit code follows them, with and
 * without --detailed-exitcode. A saved plan whose policy file changed is refused whole, before any
 * request, by the one staleness check of its inputs. In-process CLI against the sandbox over
 * loopback, on its virtual clock.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse, stringify } from "yaml";
import type { PlanFlags } from "../../cli/commands/plan.js";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { admin } from "../sandbox/helpers.js";
import { closedAfterEach, emailBed, planWorld } from "./world.js";

const beds = closedAfterEach();

/** Rows the policy's `require_email_consent` refuses (no consent columns) and one invalid address. */
const REFUSED_ROWS = [
  "noconsent1@example.org,,,No Consent,Riverside",
  "noconsent2@example.org,,,No Consent,Riverside",
  "not-an-address,signup form,2026-03-01T09:30:00Z,Bad,Riverside",
];

/** The world: texting projects, two email lists (one with refused rows), two email campaigns, reply rules. */
async function everyItem(): Promise<TestBed> {
  const bed = await emailBed({ childRows: 4, childExtra: REFUSED_ROWS, texts: { test: 2 } });
  const path = join(bed.world.dir, bed.world.campaignFile);
  const file = parse(readFileSync(path, "utf8"));
  const [first] = Object.keys(file.projects);
  if (first === undefined) throw new Error("bug: the world has no project");
  file.projects[first].replies = {
    rules: [
      {
        name: "where",
        keywords: ["where do i vote"],
        answer: "Find your polling place at vote.example.org.",
      },
    ],
  };
  writeFileSync(path, stringify(file));
  return bed;
}

const plan = (bed: TestBed, flags: Partial<PlanFlags>) => planWorld(bed, { policy: "policy.yaml", ...flags });

/** The counts a summary line states. */
function stated(line: string): { toDo: number; blocked: number; errors: number; warnings: number } {
  const m = /Plan: (\d+) to do.*?, \d+ deferred, (\d+) blocked, .*?; (\d+) errors?, (\d+) warnings?/.exec(
    line,
  );
  if (m === null) throw new Error(`no summary line in ${line}`);
  return { toDo: Number(m[1]), blocked: Number(m[2]), errors: Number(m[3]), warnings: Number(m[4]) };
}

/** Every diagnostic of a plan document, wherever it sits (projects, email lists and campaigns, the plan). */
function documentFindings(doc: unknown): { severity: string }[] {
  const out: { severity: string }[] = [];
  const walk = (v: unknown, key: string): void => {
    if (Array.isArray(v)) {
      for (const x of v)
        if (key === "diagnostics" && typeof x === "object" && x !== null && "severity" in x)
          out.push(x as { severity: string });
        else walk(x, "");
    } else if (typeof v === "object" && v !== null)
      for (const [k, x] of Object.entries(v)) if (k !== "summary") walk(x, k);
  };
  walk(doc, "");
  return out;
}

describe("one plan of every item", () => {
  test("the summary line counts what each view prints; the exit code follows it", async () => {
    const bed = await everyItem();
    beds.push(bed);

    const json = await plan(bed, { json: true, markdown: "plan.md" });
    checkCliDocuments(["plan", "--json"], json.stdout, bed.world.dir);
    const doc = JSON.parse(json.stdout);
    const s = doc.summary;
    // The items: 2 test actions, 2 email lists (both to sync: the refused rows stay behind), 2 email
    // campaigns (drift and a pending domain: blocked), 1 reply rule set.
    expect(doc.projects.flatMap((p: { actions: unknown[] }) => p.actions)).toHaveLength(2);
    expect(s.email_lists).toEqual({ planned: 2, ready: 0, blocked: 0, skipped: 0 });
    expect(s.email_campaigns).toEqual({ planned: 0, ready: 0, blocked: 2, skipped: 0 });
    expect(s.reply_rule_sets).toEqual({ planned: 0, ready: 1, blocked: 0, skipped: 0 });
    expect(doc.replies.map((r: { rules: { name: string }[] }) => r.rules.map((x) => x.name))).toEqual([
      ["where"],
    ]);
    const young = doc.email.lists.find((l: { address: string }) => l.address === "young-volunteers");
    expect(young).toMatchObject({ rows: 7, to_send: 4, refused: 3, verdict: "planned" });
    // JSON: the summary counts every diagnostic the document holds.
    const findings = documentFindings(doc);
    expect(findings.filter((d) => d.severity === "error")).toHaveLength(s.errors);
    expect(findings.filter((d) => d.severity === "warning")).toHaveLength(s.warnings);
    expect(s.errors).toBe(3 + 2); // three refused rows, the campaigns' drift and pending domain

    // The terminal: the line says what was printed above it (each finding once).
    const human = await plan(bed, {});
    const line = human.stdout.split("\n").find((l) => l.startsWith("Plan: ")) ?? "";
    const counts = stated(line);
    expect(counts).toEqual({ toDo: 2 + 2, blocked: 2, errors: s.errors, warnings: s.warnings });
    expect(line).toContain("(2 test, 2 email list syncs)");
    expect(line).toContain("2 email lists, 2 email campaigns, 1 reply rule set");
    expect(human.stdout.match(/\berror\[/g) ?? []).toHaveLength(counts.errors);
    expect(human.stdout.match(/\bwarning\[/g) ?? []).toHaveLength(counts.warnings);
    // Nothing of the plan comes after the summary line (it closes the report).
    expect(human.stdout.slice(human.stdout.indexOf(line))).not.toMatch(/error\[|Email|Reply rules/);

    // Markdown: the same line, and as many findings listed.
    const md = readFileSync(join(bed.world.dir, "plan.md"), "utf8");
    expect(stated(md)).toEqual(counts);
    expect(md.match(/\*\*error\*\* `/g) ?? []).toHaveLength(counts.errors);
    expect(md.match(/\*\*warning\*\* `/g) ?? []).toHaveLength(counts.warnings);

    // The exit code follows the summary: blocked (errors) wins over pending.
    expect(json.code).toBe(1);
    expect(human.code).toBe(1);
    expect((await plan(bed, { detailedExitcode: true })).code).toBe(3);
    // No write was made by any of these plans.
    expect((await requestLog(bed.sb)).filter((r) => r.method === "POST")).toEqual([]);
  }, 120_000);

  test("email list syncs alone are pending work: exit 0, and 2 with --detailed-exitcode", async () => {
    const bed = await emailBed({ childRows: 3, campaigns: false, donors: false });
    beds.push(bed);
    const flags = { target: ["young-volunteers"] };
    const human = await plan(bed, flags);
    expect(human.code, human.stdout).toBe(0);
    const line = human.stdout.split("\n").find((l) => l.startsWith("Plan: ")) ?? "";
    expect(line).toMatch(/^Plan: 1 to do \(1 email list sync\), 0 deferred, 0 blocked, 0 drifted; 0 errors/);
    expect((await plan(bed, { ...flags, detailedExitcode: true })).code).toBe(2);

    // apply then syncs it, and says so: its result and summary line include the list.
    const run = await runApply(bed, ["campaign"], {
      ...flags,
      autoApprove: true,
      policy: "policy.yaml",
      markdown: "apply.md",
      junit: "apply.xml",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain("No actions: the plan had nothing to do");
    expect(run.stdout).toContain("No texting actions: the plan's projects had nothing to do.");
    expect(run.stdout).toMatch(/young-volunteers \(e2[^)]*\): synced; 3 rows: 3 accepted/);
    const applied = run.stdout.split("\n").find((l) => l.startsWith("Apply complete")) ?? "";
    expect(applied).toMatch(/; email lists: 1 synced, 0 failed\. [1-9]\d* API requests?,/);
    // The report files are views of the same result: they show the sync too.
    const md = readFileSync(join(bed.world.dir, "apply.md"), "utf8");
    expect(md).toContain("; email lists: 1 synced, 0 failed.");
    expect(md).toContain("| `young-volunteers` | synced | 3 | 3 | 0 | 0 | 0 | 0 | 0 | 1 |");
    const junit = readFileSync(join(bed.world.dir, "apply.xml"), "utf8");
    expect(junit).toContain('<testsuite name="campaignctl apply" tests="1" failures="0"');
    expect(junit).toContain('<testcase classname="email" name="young-volunteers"');
    const posts = (await requestLog(bed.sb)).filter((r) => r.method === "POST");
    expect(posts.map((r) => r.path)).toEqual(["/email/lists/e2000000-0000-4000-8000-0000000000c1/contacts"]);
  }, 60_000);

  test("a saved plan whose policy file changed is refused whole, before any request", async () => {
    const bed = await emailBed({ childRows: 3, campaigns: false, donors: false });
    beds.push(bed);
    expect((await plan(bed, { out: "plan.json" })).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(bed.world.dir, "plan.json"), "utf8"));
    expect(saved.files.map((f: { path: string; kind: string }) => [f.path, f.kind])).toEqual([
      ["campaign/generated.yaml", "campaign"],
      ["campaign/young-email.yaml", "campaign"],
      ["policy.yaml", "policy"],
      ["campaign/lists/young.csv", "csv"],
    ]);
    // A policy loosened after the review (consent no longer required) must not ride on it.
    writeFileSync(
      join(bed.world.dir, "policy.yaml"),
      stringify({ version: 1, rules: { require_email_consent: false } }),
    );
    await admin(bed.sb, "DELETE", "/requests");
    const run = await runApply(bed, ["plan.json"], { json: true, policy: "policy.yaml" });
    checkCliDocuments(["apply", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout);
    expect(doc.refused.map((d: { code: string; message: string }) => `${d.code}: ${d.message}`)).toEqual([
      expect.stringMatching(
        /^apply\.files-changed: the policy file policy\.yaml changed since the plan was made \(sha256 [0-9a-f]{12} in the plan, [0-9a-f]{12} now\)$/,
      ),
    ]);
    expect(doc.actions.every((a: { status: string }) => a.status === "not-started")).toBe(true);
    expect(await requestLog(bed.sb)).toHaveLength(0);
  }, 60_000);
});
