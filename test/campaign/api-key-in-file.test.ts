/**
 * An API key written into a campaign file or a policy file is an error at the key, and its text is
 * never shown back: not in the source excerpt of any diagnostic on its line, not in `--json`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const KEY = "pc_live_Abc123Def456Ghi789Jkl012";
const EXAMPLES = new URL("../../examples/", import.meta.url);

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A copy of the example GOTV file and its policy, each edited by `edit`. */
function world(edit: { campaign?: (text: string) => string; policy?: (text: string) => string }): string {
  const dir = mkdtempSync(join(tmpdir(), "key-in-file-"));
  dirs.push(dir);
  const read = (name: string) => readFileSync(new URL(name, EXAMPLES), "utf8");
  writeFileSync(join(dir, "gotv.yaml"), (edit.campaign ?? ((t) => t))(read("gotv.yaml")));
  writeFileSync(
    join(dir, "campaignctl.policy.yaml"),
    (edit.policy ?? ((t) => t))(read("campaignctl.policy.yaml")),
  );
  return dir;
}

test("a key as a value, in a comment and in a message (any case): an error at each, never shown back", async () => {
  const dir = world({
    campaign: (t) =>
      t
        .replace(
          "organization: Riverside Democrats\n",
          `organization: Riverside Democrats\napi_key: ${KEY}\n# old key: ${KEY}\n`,
        )
        .replace(/message: "/, `message: "${KEY.toUpperCase()} `),
  });
  const text = await runCli(["validate", "gotv.yaml"], { cwd: dir });
  expect(text.code).toBe(1);
  const found = text.stdout.split("\n").filter((l) => l.includes("error[campaign.api-key-in-file]"));
  expect(found.map((l) => l.split(": error")[0])).toEqual([
    "gotv.yaml:7:10",
    "gotv.yaml:8:12",
    expect.stringMatching(/^gotv\.yaml:\d+:\d+$/),
  ]);
  // The unknown key's excerpt shows the line with the key masked, its caret where it was.
  expect(text.stdout).toContain(`  7 | api_key: ${"*".repeat(KEY.length)}\n    | ^^^^^^^\n`);
  const json = await runCli(["validate", "gotv.yaml", "--json"], { cwd: dir });
  for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) {
    expect(out).not.toContain(KEY.slice(8));
    expect(out.toLowerCase()).not.toContain(KEY.slice(-10).toLowerCase());
  }
  expect(
    JSON.parse(json.stdout).diagnostics.filter(
      (d: { code: string }) => d.code === "campaign.api-key-in-file",
    ),
  ).toHaveLength(3);
});

test("a key in the policy file is the policy's error, and nothing is judged by that policy", async () => {
  const dir = world({ policy: (t) => `${t}# ci key: ${KEY}\n` });
  const run = await runCli(["validate", "gotv.yaml"], { cwd: dir });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/campaignctl\.policy\.yaml:\d+:11: error\[policy\.api-key-in-file\]/);
  expect(run.stderr).not.toContain(KEY.slice(8));
});

test("near misses are not keys: a word ending in live_, a short tail, another prefix", async () => {
  const dir = world({
    campaign: (t) =>
      t.replace(/message: "/, 'message: "olive_oil fest: pc_live_short, pc_test_Abc123Def456Ghi789, '),
  });
  const run = await runCli(["validate", "gotv.yaml", "--json"], { cwd: dir });
  const codes = JSON.parse(run.stdout).diagnostics.map((d: { code: string }) => d.code);
  expect(codes).not.toContain("campaign.api-key-in-file");
});

test("a pasted blob of 250,000 keys is 20 errors and one that counts the rest, not an internal error", async () => {
  // Before, each key was one error, and the list spread into a call's arguments overflowed the
  // stack: validate ended with exit 70 (internal error), the language server with lsp.internal-error.
  const blob = `${Array.from({ length: 250_000 }, (_, i) => `pc_live_${String(i).padStart(12, "0")}`).join(" ")}`;
  const dir = world({
    campaign: (t) => `${t}# pasted by mistake: ${blob}\n`,
    policy: (t) => `${t}# ${blob}\n`,
  });
  const json = await runCli(["validate", "gotv.yaml", "--json"], { cwd: dir });
  expect(json.stderr).toBe("");
  expect(json.code).toBe(1);
  const found = (JSON.parse(json.stdout).diagnostics as { code: string; message: string }[]).filter((d) =>
    d.code.endsWith(".api-key-in-file"),
  );
  for (const code of ["campaign.api-key-in-file", "policy.api-key-in-file"]) {
    const mine = found.filter((d) => d.code === code);
    expect(mine).toHaveLength(21);
    expect(mine[20]?.message).toBe("249980 more API keys in this file are not shown");
  }
  expect(json.stdout).not.toContain("pc_live_0000");
});
