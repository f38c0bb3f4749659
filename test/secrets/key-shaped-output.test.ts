/**
 * A key the run was not given, quoted by the API (a live message's text, a contact's reply), is
 * shown by no output: `plan` (text, `--json`, `--markdown`, `--out`) and `replies plan` mask it as
 * `*`, with the one mask of key-shaped text (src/contract/key-shaped.ts) applied by the output
 * redaction (cli/output/output-redaction.ts). Only `campaignctl sandbox` prints keys: its fixture's.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { runCli } from "../helpers/run-cli.js";
import { GOTV_REMINDER } from "../sandbox/helpers.js";

/** A key of some other organization, pasted into the live message in the dashboard. */
const LIVE_KEY = "pc_live_DashPasted9Zq4Wm7Xk";
/** The run's own key: it shares the prefix `pc_live_` with every key (the redactor masks that run). */
const ENV = { CAMPAIGNCTL_API_KEY: "pc_live_runsOwn3Hj6Kl9Mn2" };
/** A key a contact texted in. */
const INBOUND_KEY = "PC_LIVE_textedIn5Rt8Yu2Io";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The examples, and `world.yaml`: the example world with a key in the GOTV reminder's text and in a reply. */
function workspace(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-key-shaped-"));
  dirs.push(cwd);
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  cpSync("schemas", join(cwd, "schemas"), { recursive: true });
  const fixture = parse(readFileSync("examples/sandbox.yaml", "utf8")) as Fixture;
  for (const p of fixture.projects ?? [])
    if (p.project_id === GOTV_REMINDER) p.message_text = `${p.message_text} key ${LIVE_KEY}`;
  const conversation = (fixture.conversations ?? [])[0];
  const inbound = conversation?.messages?.find((m) => m.direction === "inbound");
  if (inbound === undefined) throw new Error("the example world has no inbound message");
  inbound.text = `my key is ${INBOUND_KEY} where do I vote?`;
  mkdirSync(join(cwd, "out"));
  writeFileSync(join(cwd, "world.yaml"), stringify(fixture));
  return cwd;
}

function expectNoKey(text: string): void {
  expect(text.toLowerCase()).not.toContain("live_dash");
  expect(text.toLowerCase()).not.toContain("live_textedin");
}

describe("a key-shaped run the API quotes", () => {
  it("is masked in plan's text, --json, --markdown and --out", async () => {
    const cwd = workspace();
    const sandbox = ["--sandbox", "--fixture", "world.yaml", "examples/"];
    const text = await runCli(["plan", ...sandbox], { cwd, env: ENV });
    // The drift is shown (the file's text differs from the live one), without the key.
    expect(text.stdout).toContain(`key ${"*".repeat(LIVE_KEY.length)}`);
    const json = await runCli(["plan", ...sandbox, "--json"], { cwd, env: ENV });
    const markdown = await runCli(["plan", ...sandbox, "--markdown", "out/plan.md"], { cwd, env: ENV });
    const saved = await runCli(["plan", ...sandbox, "--out", "out/plan.json"], { cwd, env: ENV });
    for (const r of [text, json, markdown, saved]) expectNoKey(r.stdout + r.stderr);
    for (const r of [text, json, markdown, saved]) expect(r.code).toBe(1);
    expectNoKey(readFileSync(join(cwd, "out", "plan.json"), "utf8"));
    // The drift is in the Markdown (a diff block), its key masked.
    const md = readFileSync(join(cwd, "out", "plan.md"), "utf8");
    expect(md).toContain(`key ${"*".repeat(LIVE_KEY.length)}`);
    expectNoKey(md);
    expect(JSON.parse(json.stdout)).toBeTypeOf("object");
  });

  it("is masked in replies plan", async () => {
    const cwd = workspace();
    const r = await runCli(["replies", "plan", "--sandbox", "--fixture", "world.yaml", "examples/"], {
      cwd,
      env: ENV,
    });
    expect(r.stdout).toContain(`my key is ${"*".repeat(INBOUND_KEY.length)}`);
    expectNoKey(r.stdout + r.stderr);
  });
});

describe("import of a live project whose text holds a key", () => {
  it("writes nothing and names the project (import.live-key), not a bug of import", async () => {
    const cwd = workspace();
    const r = await runCli(
      ["import", "--sandbox", "--fixture", "world.yaml", "--all", "--out", "imported/", "--json"],
      { cwd, env: ENV },
    );
    expect(r.code).toBe(1);
    expectNoKey(r.stdout + r.stderr);
    const document = JSON.parse(r.stdout) as {
      diagnostics: { code: string; message: string; hint?: string }[];
    };
    expect(document.diagnostics.map((d) => d.code)).toEqual(["import.live-key"]);
    expect(document.diagnostics[0]?.message).toContain(GOTV_REMINDER);
    expect(document.diagnostics[0]?.hint).not.toContain("bug");
    expect(existsSync(join(cwd, "imported"))).toBe(false);
  });

  it("--template: writes nothing either (the file would have said `*` where the live text has the key)", async () => {
    const cwd = workspace();
    const argv = ["import", "--sandbox", "--fixture", "world.yaml", GOTV_REMINDER, "--template", "reminder"];
    const r = await runCli([...argv, "--out", "reminder.yaml", "--json"], { cwd, env: ENV });
    expect(r.code).toBe(1);
    expectNoKey(r.stdout + r.stderr);
    const document = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
    expect(document.diagnostics.map((d) => d.code)).toEqual(["import.live-key"]);
    expect(existsSync(join(cwd, "reminder.yaml"))).toBe(false);
  });
});
