/**
 * `campaignctl completion bash|zsh|fish`: the scripts are made from the registered program, so they
 * name every command and every visible flag (hidden aliases never); bash accepts its script
 * (`bash -n`) and completes with it; zsh and fish check theirs when installed (`zsh -n`,
 * `fish --no-execute`, fish's own `complete -C`), and every script passes a simple quoting check.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { buildProgram } from "../../cli/program.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { COMMAND_NAMES } from "./command-names.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

const scripts = {} as Record<Shell, string>;
const files = {} as Record<Shell, string>;
let dir = "";

/** Every command `--help` lists, with its visible long flags, read from the program itself. */
async function commandsAndFlags(): Promise<{ name: string; flags: string[] }[]> {
  const program = await buildProgram(captureIo(), () => {});
  const help = program.createHelp();
  return help.visibleCommands(program).map((c) => ({
    name: c.name(),
    flags: help.visibleOptions(c).flatMap((o) => (o.long === undefined ? [] : [o.long])),
  }));
}

function installed(shell: string): boolean {
  return spawnSync(shell, ["-c", "exit 0"], { stdio: "ignore" }).status === 0;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-completion-"));
  for (const shell of SHELLS) {
    const run = await runCli(["completion", shell]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    scripts[shell] = run.stdout;
    files[shell] = join(dir, `campaignctl.${shell}`);
    writeFileSync(files[shell], run.stdout);
  }
});

describe("completion scripts", () => {
  test("bash accepts the bash script (bash -n)", () => {
    expect(spawnSync("bash", ["-n", files.bash], { encoding: "utf8" }).stderr).toBe("");
  });

  test.each(SHELLS)("the %s script names every command and every visible flag", async (shell) => {
    const commands = await commandsAndFlags();
    expect(commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(["init", "plan", "completion", "help"]),
    );
    for (const command of commands) {
      expect(scripts[shell]).toMatch(new RegExp(`(^|[\\s'"(])${command.name}([\\s')]|$)`, "m"));
      for (const flag of command.flags)
        expect(scripts[shell], `${shell}: ${command.name} ${flag}`).toContain(
          shell === "fish" ? `-l ${flag.slice(2)} ` : flag,
        );
    }
  });

  test.each(SHELLS)("the %s script leaves hidden aliases out (preview --project, -V)", (shell) => {
    expect(scripts[shell]).not.toMatch(/--project\b|-l project\b/);
    expect(scripts[shell]).not.toMatch(/(^|\s|')-V\b|-s V\b/m);
  });

  test.each(SHELLS)("every line of the %s script closes its single quotes", (shell) => {
    // Outside quotes a backslash escapes the next character; zsh/bash `'\''` and fish `\'` are
    // both read so. A line with an odd count would leave a quote open.
    for (const line of scripts[shell].split("\n")) {
      const unescaped = shell === "fish" ? line.replace(/\\[\\']/g, "") : line.replace(/'\\''/g, "");
      expect((unescaped.match(/'/g) ?? []).length % 2, line).toBe(0);
    }
  });

  test.each([
    ["campaignctl pl", ["plan"]],
    ["campaignctl ", COMMAND_NAMES],
    ["campaignctl plan --ver", ["--verbose"]],
    ["campaignctl apply --tar", ["--target"]],
    ["campaignctl preview --format ", ["text", "json"]],
    ["campaignctl init --ci ", ["github", "gitlab", "none"]],
    ["campaignctl completion ", ["bash", "zsh", "fish"]],
    ["campaignctl help ap", ["apply", "approve"]],
    ["campaignctl --ver", ["--version"]],
    // Nothing follows the version (`campaignctl -v plan` is a usage error); a command follows -h.
    ["campaignctl -v ", []],
    ["campaignctl --version pl", []],
    ["campaignctl -h pl", ["plan"]],
    // A command of commands offers its subcommands (never file names), then the subcommand's flags.
    ["campaignctl webhooks ", ["listen", "verify"]],
    ["campaignctl webhooks l", ["listen"]],
    ["campaignctl webhooks listen --po", ["--port"]],
    ["campaignctl webhooks verify --hea", ["--headers"]],
    ["campaignctl webhooks listen --port 8787 --js", ["--json"]],
  ] as [string, string[]][])("bash completes `%s` with %j", (line, expected) => {
    const words = line.split(" ");
    const script = `source ${JSON.stringify(files.bash)}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(" ")}); COMP_CWORD=${words.length - 1}
_campaignctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = execFileSync("bash", ["-c", script], { encoding: "utf8" });
    expect(out.split("\n").filter((w) => w !== "")).toEqual(expected);
  });

  test.runIf(installed("zsh"))("zsh accepts the zsh script (zsh -n) and registers it with compdef", () => {
    expect(spawnSync("zsh", ["-n", files.zsh], { encoding: "utf8" }).stderr).toBe("");
    const out = execFileSync(
      "zsh",
      [
        "-f",
        "-c",
        `autoload -U compinit; compinit -u -D; source ${files.zsh}; print -- $_comps[campaignctl]`,
      ],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe("_campaignctl");
  });

  test.runIf(installed("fish"))("fish accepts the fish script and completes with it", () => {
    expect(spawnSync("fish", ["--no-execute", files.fish], { encoding: "utf8" }).stderr).toBe("");
    const complete = (line: string) =>
      execFileSync("fish", ["--no-config", "-c", `source ${files.fish}; complete -C '${line}'`], {
        encoding: "utf8",
      })
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => l.split("\t")[0]);
    expect(complete("campaignctl pl")).toEqual(["plan"]);
    expect(complete("campaignctl -v pl")).toEqual([]); // nothing after the version
    expect(complete("campaignctl --version pl")).toEqual([]);
    expect(complete("campaignctl -h pl")).toEqual(["plan"]);
    expect(complete("campaignctl completion ")).toEqual(["bash", "fish", "zsh"]);
    expect(complete("campaignctl apply --verb")).toEqual(["--verbose"]);
    expect(complete("campaignctl webhooks ")).toEqual(["listen", "verify"]);
    expect(complete("campaignctl webhooks verify --hea")).toEqual(["--headers"]);
    expect(complete("campaignctl webhooks listen --po")).toEqual(["--port"]);
  });
});

test("zsh and fish offer the subcommands of webhooks, and each subcommand's flags after it", () => {
  // The shells' own checks run above when they are installed; this reads the rendered text.
  expect(scripts.zsh).toContain("_campaignctl_webhooks_commands() {");
  expect(scripts.zsh).toContain("'listen:Receive signed deliveries");
  expect(scripts.zsh).toContain("'1: :_campaignctl_webhooks_commands'");
  expect(scripts.zsh).toMatch(/ {12}listen\)\n {14}_arguments \\\n {16}'--port='/);
  expect(scripts.fish).toContain(
    "complete -c campaignctl -n '__fish_seen_subcommand_from webhooks; and not __fish_seen_subcommand_from listen verify' -a listen -d ",
  );
  expect(scripts.fish).toContain(
    "complete -c campaignctl -n '__fish_seen_subcommand_from webhooks; and __fish_seen_subcommand_from verify' -l headers -r -F",
  );
});

test("an unknown shell is a usage error naming the choices", async () => {
  const run = await runCli(["completion", "powershell"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("Allowed choices are bash, zsh, fish.");
});
