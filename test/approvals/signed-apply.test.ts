/**
 * Issue 37 point 6, acceptance, with real SSH signatures: a policy requiring two approvals, keys made
 * by ssh-keygen in the test, the allowed signers file beside the policy. A saved plan with one valid
 * approval sends nothing (the sandbox's effects log stays empty); an approval by the plan's author,
 * by a key not in the allowed signers, or for another plan's hash does not count; with two distinct
 * valid signers it applies. Through the CLI (`plan --out`, `approve`, `apply PLANFILE`), every JSON
 * document checked against its schema.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { planSha256 } from "../../src/approvals/plan-hash.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";
import { type ApprovalsWorld, approvalsWorld, sent } from "./world.js";

let world: ApprovalsWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The refusal's codes and the approvals diagnostic's message, from `apply PLANFILE --json`. */
async function applyRefused(w: ApprovalsWorld, plan = "plan.json") {
  const run = await runCli(["apply", plan, "--json"], { cwd: w.dir, env: w.env });
  expect(run.code, run.stderr).toBe(1);
  const result = JSON.parse(run.stdout) as ApplyResult;
  expect(result.actions.map((a) => `${a.id} ${a.status}`)).toEqual(
    result.actions.map((a) => `${a.id} not-started`),
  );
  const refusal = result.refused.find((d) => d.code === "apply.approvals-missing");
  expect(refusal, run.stdout).toBeDefined();
  return { codes: result.refused.map((d) => d.code), message: refusal?.message ?? "", run };
}

async function approve(w: ApprovalsWorld, key: string, ...more: string[]) {
  return runCli(["approve", "plan.json", "--key", key, ...more], { cwd: w.dir, env: w.env });
}

describe("two approvals, signed with SSH keys", () => {
  test("one approval sends nothing; the author's, an unknown key's and another plan's do not count; two apply", async () => {
    const w = await approvalsWorld();
    world = w;
    const dana = w.key("dana");
    const erin = w.key("erin");
    const frank = w.key("frank");
    const eve = w.key("eve");
    w.allow("dana@example.org", "dana");
    w.allow("erin@example.org", "erin");
    w.allow("frank@example.org", "frank");

    const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env });
    expect(planned.code, planned.stderr).toBe(0);
    const hash = planSha256(JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8")));
    expect(planned.stderr).toContain(`The saved plan plan.json has sha256 ${hash}`);
    expect(planned.stderr).toContain(
      "gotv-reminder.schedule, gotv-followup.schedule need 2 approvals by people other than its author",
    );
    const dir = join(w.dir, "approvals", hash);

    // The author signs the plan as its author; erin approves: one approval of two.
    const author = await approve(w, dana, "--author", "--json");
    expect(author.code, author.stderr).toBe(0);
    expect(JSON.parse(author.stdout)).toMatchObject({
      plan_sha256: hash,
      role: "author",
      principals: ["dana@example.org"],
      signature_file: join("approvals", hash, "dana@example.org.author.sig"),
      needs_approval: ["gotv-reminder.schedule", "gotv-followup.schedule"],
    });
    expect((await approve(w, erin)).code).toBe(0);
    const one = await applyRefused(w);
    expect(one.codes).toEqual(["apply.approvals-missing"]);
    expect(one.message).toContain("needs 2 approvals by people other than its author");
    expect(one.message).toContain(`it has 1 (signature files in approvals/${hash}/)`);
    expect(one.message).toContain("approved by erin@example.org (erin@example.org.sig)");
    expect(one.message).toContain("author: dana@example.org");
    expect(one.message).toContain("missing: 1 more approval (could approve: frank@example.org)");
    expect(await sent(w.sb)).toEqual([]);

    // The author's own approval does not count.
    expect((await approve(w, dana)).code).toBe(0);
    const byAuthor = await applyRefused(w);
    expect(byAuthor.message).toContain(
      "dana@example.org (dana@example.org.sig): by the plan's author (dana@example.org)",
    );

    // A key not in the allowed signers: approve refuses to write it; a hand-made signature does not count.
    const refused = await approve(w, eve);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("approve.not-allowed-signer");
    expect(readdirSync(dir).sort()).toEqual([
      "dana@example.org.author.sig",
      "dana@example.org.sig",
      "erin@example.org.sig",
    ]);
    const message = `campaignctl-plan sha256:${hash}\n`;
    writeFileSync(
      join(dir, "eve.sig"),
      execFileSync("ssh-keygen", ["-Y", "sign", "-f", eve, "-n", "campaignctl-approval"], {
        input: message,
        stdio: ["pipe", "pipe", "ignore"],
      }),
    );
    const unknown = await applyRefused(w);
    expect(unknown.message).toMatch(
      /key SHA256:[A-Za-z0-9+/]{43} \(eve\.sig\): signed with key SHA256:\S+, which is not in the allowed signers file examples\/allowed_signers/,
    );

    // Frank's approval of another saved plan (another hash), copied in: it does not verify for this one.
    const other = await runCli(["plan", "examples", "--target", "gotv-reminder", "--out", "other.json"], {
      cwd: w.dir,
      env: w.env,
    });
    expect(other.code, other.stderr).toBe(0);
    const otherHash = planSha256(JSON.parse(readFileSync(join(w.dir, "other.json"), "utf8")));
    expect(otherHash).not.toBe(hash);
    const forOther = await runCli(["approve", "other.json", "--key", frank], { cwd: w.dir, env: w.env });
    expect(forOther.code, forOther.stderr).toBe(0);
    copyFileSync(
      join(w.dir, "approvals", otherHash, "frank@example.org.sig"),
      join(dir, "frank@example.org.sig"),
    );
    const another = await applyRefused(w);
    expect(another.message).toContain(
      "frank@example.org (frank@example.org.sig): does not verify as a signature of this plan: it signs another plan (another hash), or it was altered",
    );
    expect(another.message).toContain("approved by erin@example.org");
    expect(another.message).toContain("missing: 1 more approval");
    expect(await sent(w.sb)).toEqual([]);

    // Frank approves this plan: two distinct valid signers other than the author. It applies.
    rmSync(join(dir, "frank@example.org.sig"));
    expect((await approve(w, frank)).code).toBe(0);
    const applied = await runCli(["apply", "plan.json", "--json"], { cwd: w.dir, env: w.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(
      `has 2 of the 2 approvals its schedules need (signature files in approvals/${hash}/), by erin@example.org (erin@example.org.sig), frank@example.org (frank@example.org.sig); author: dana@example.org`,
    );
    const result = JSON.parse(applied.stdout) as ApplyResult;
    expect(schemaErrors("apply-result", result)).toEqual([]);
    expect(Object.fromEntries(result.actions.map((a) => [a.id, a.status]))).toMatchObject({
      "gotv-reminder.schedule": "done",
      "gotv-followup.schedule": "done",
      "early-vote-push.pause": "done",
    });
    const effects = await sent(w.sb);
    for (const e of [`${GOTV_REMINDER}:schedule`, `${GOTV_FOLLOWUP}:schedule`, `${EARLY_VOTE}:pause`])
      expect(effects).toContain(e);
  }, 120_000);

  test("a saved plan nobody signed as its author cannot be approved, whoever approves it", async () => {
    const w = await approvalsWorld();
    world = w;
    const erin = w.key("erin");
    const frank = w.key("frank");
    w.allow("erin@example.org", "erin");
    w.allow("frank@example.org", "frank");
    expect((await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env })).code).toBe(
      0,
    );
    expect((await approve(w, erin)).code).toBe(0);
    expect((await approve(w, frank)).code).toBe(0);
    // Neither a file that is no signature nor erin's signature of the hash for git (namespace git) counts.
    const hash = planSha256(JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8")));
    const dir = join(w.dir, "approvals", hash);
    writeFileSync(join(dir, "notes.sig"), "looks good to me\n");
    writeFileSync(
      join(dir, "erin-git.sig"),
      execFileSync("ssh-keygen", ["-Y", "sign", "-f", erin, "-n", "git"], {
        input: `campaignctl-plan sha256:${hash}\n`,
        stdio: ["pipe", "pipe", "ignore"],
      }),
    );
    const refused = await applyRefused(w);
    expect(refused.message).toContain("nobody has signed the saved plan as its author");
    expect(refused.message).toContain("approved by erin@example.org");
    expect(refused.message).toContain("unknown (notes.sig): not an SSH signature (no BEGIN SSH SIGNATURE)");
    expect(refused.message).toMatch(
      /key SHA256:\S+ \(erin-git\.sig\): signed for namespace "git", not as an approval \(campaignctl-approval\)/,
    );
    expect(await sent(w.sb)).toEqual([]);
  }, 60_000);

  test("approve refuses without an allowed signers file in the policy, and writes nothing", async () => {
    const w = await approvalsWorld("  require_approvals: {count: 1}\n");
    world = w;
    const erin = w.key("erin");
    expect((await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env })).code).toBe(
      0,
    );
    const run = await approve(w, erin);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("approve.no-allowed-signers");
    expect(existsSync(join(w.dir, "approvals"))).toBe(false);
    // apply says why no signed approval can count, and sends nothing.
    const applied = await runCli(["apply", "plan.json"], { cwd: w.dir, env: w.env });
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain("apply.approvals-unavailable");
    expect(applied.stdout).toContain("names no allowed_signers file");
    expect(await sent(w.sb)).toEqual([]);
  }, 60_000);
});
