/**
 * `validate` on worker threads gives exactly what it gives in one thread: the built CLI (the
 * compiled worker exists only in dist/) run with CAMPAIGNCTL_VALIDATE_WORKERS=2 (or 1) on files
 * with problems of their own and across files (a duplicate address, ids differing in case, an
 * unknown `after`, a follow-up sending first), compared with the one-thread run of the same
 * program in-process (`run` of cli/lifecycle/run.ts with CAMPAIGNCTL_VALIDATE_WORKERS=0; without dist/'s
 * compiled worker it never starts one).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";

const HEAD = 'version: 1\ndefaults:\n  message: "Vote! Reply STOP to opt out"\n  contact_lists: [Ward 3]\n';

function world(): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-workers-"));
  const files: Record<string, string> = {
    "a.yaml": `${HEAD}projects:\n  reminder:\n    id: 9a000000-0000-4000-8000-00000000000a\n    state: scheduled\n    schedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}\n`,
    "b.yaml": `${HEAD}projects:\n  followup:\n    id: 9A000000-0000-4000-8000-00000000000A\n    state: scheduled\n    schedule: {at: "2026-12-07T09:00:00-06:00", timezone: America/Chicago}\n    after: [reminder, remindr]\n`,
    "c.yaml": `${HEAD}projects:\n  reminder:\n    id: p3\n     name: misindented\n`,
    "d.yaml": `${HEAD}projects:\n  tested:\n    id: p4\n    state: tested\n    test:\n      contacts:\n        - phone: "+447700900123"\n`,
  };
  for (let i = 0; i < 6; i++)
    files[`z${i}.yaml`] =
      `${HEAD}projects:\n  p-${i}:\n    id: p-${i}\n    message: "Hi\\u200B there. Reply STOP"\n`;
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("validate on worker threads", () => {
  it("reports the same document with 2 workers as in one thread", async () => {
    const dir = world();
    const args = ["validate", ".", "--json", "--now", "2026-12-01T15:00:00Z"];
    const threaded = await runBuiltCli(args, { cwd: dir, env: { CAMPAIGNCTL_VALIDATE_WORKERS: "2" } });
    const single = await runCli(args, { cwd: dir, env: { CAMPAIGNCTL_VALIDATE_WORKERS: "0" } });
    expect(threaded.stderr).toBe("");
    expect(threaded.code).toBe(1);
    expect(single.code).toBe(1);
    expect(threaded.stdout).toBe(single.stdout);
    const doc = JSON.parse(threaded.stdout) as { projects: number; diagnostics: { code: string }[] };
    expect(doc.projects).toBe(9);
    expect(new Set(doc.diagnostics.map((d) => d.code))).toEqual(
      new Set([
        "campaign.duplicate-address",
        "campaign.ids-differ-in-case",
        "campaign.after-unknown",
        "lint.after-sends-first",
        "campaign.yaml-indent",
        "campaign.test-phone-not-nanp",
        "lint.invisible-character",
      ]),
    );
  }, 30_000);

  it("reports the same for a run's only file checked on the lone worker as in one thread", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-lone-"));
    writeFileSync(
      join(dir, "only.yaml"),
      `${HEAD}projects:\n  reminder:\n    id: 9a000000-0000-4000-8000-00000000000a\n    state: scheduled\n    schedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}\n  followup:\n    id: 9A000000-0000-4000-8000-00000000000A\n    state: scheduled\n    schedule: {at: "2026-12-07T09:00:00-06:00", timezone: America/Chicago}\n    after: [reminder, remindr]\n  hidden:\n    id: p-1\n    message: "Hi\\u200B there. Reply STOP"\n`,
    );
    const outputs: string[] = [];
    for (const format of ["--json", "--no-color"]) {
      const args = ["validate", "only.yaml", format, "--now", "2026-12-01T15:00:00Z"];
      const lone = await runBuiltCli(args, { cwd: dir, env: { CAMPAIGNCTL_VALIDATE_WORKERS: "1" } });
      const single = await runCli(args, { cwd: dir, env: { CAMPAIGNCTL_VALIDATE_WORKERS: "0" } });
      expect(lone.stderr).toBe("");
      expect(lone.code).toBe(1);
      expect(single.code).toBe(1);
      expect(lone.stdout).toBe(single.stdout);
      outputs.push(lone.stdout);
    }
    const doc = JSON.parse(outputs[0] ?? "") as { projects: number; diagnostics: { code: string }[] };
    expect(doc.projects).toBe(3);
    expect(new Set(doc.diagnostics.map((d) => d.code))).toEqual(
      new Set([
        "campaign.ids-differ-in-case",
        "campaign.after-unknown",
        "lint.after-sends-first",
        "lint.invisible-character",
      ]),
    );
  }, 30_000);
});
