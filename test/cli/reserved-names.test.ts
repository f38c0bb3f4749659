/**
 * Names are data (issue 34, point 2): every reserved JavaScript name (`__proto__`, `constructor`,
 * `toString`, ...) as every kind of key a user names (addresses, templates, instances, languages,
 * merge fields, references, capacity brands, policy maps, email lists and CSV columns, reply rules,
 * ids, live records, selectors) makes no internal error in any command: validate, preview, plan,
 * apply, status, import, replies plan and watch each end with an ordinary exit code, and every JSON
 * document they print is valid against its schema (runCli checks it). Table-driven: each kind's
 * world holds all eleven names at once (for the kinds about addresses, two worlds: the names valid
 * as addresses, which run to the end, and the others, which validation refuses), and each command
 * must end exactly as it did in each name's own world (EXPECTED) and write every name of the world.
 * Commands that read the API run against one in-process sandbox per world (real HTTP on loopback,
 * its virtual clock).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import {
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver/node";
import { stringify } from "yaml";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { PARENT_KEY } from "../sandbox/helpers.js";
import { essentials, start, stop, validateAsLsp } from "./lsp-session.js";
import {
  examplePolicy,
  groupsOf,
  KINDS,
  type Kind,
  RESERVED_NAMES,
  type ReservedWorld,
  reservedFixture,
} from "./reserved-names-world.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

/** The world's repository on disk (a `.git` marks its root), removed after the test. */
function writeWorld(world: ReservedWorld): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-reserved-"));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, ".git"));
  for (const [path, content] of Object.entries(world.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : stringify(content));
  }
  writeFileSync(join(dir, "campaignctl.policy.yaml"), stringify(world.policy ?? examplePolicy()));
  return dir;
}

/** The world on disk and its sandbox. */
async function open(world: ReservedWorld): Promise<{ dir: string; sb: SandboxHandle }> {
  const dir = writeWorld(world);
  const sb = await startSandbox({ fixture: reservedFixture(world), rateLimits: false });
  cleanup.push(() => sb.close());
  return { dir, sb };
}

/** A command of the run: its label (the table's key) and its arguments. */
type Command = readonly [label: string, argv: readonly string[]];

/**
 * Each command of the run, with its arguments (API commands against the world's sandbox), once
 * for the world; then, for the kinds that are about the live world, `import --all` once and the
 * commands that take a name on the command line once for each name.
 */
function commands(world: ReservedWorld, names: readonly string[], sb: SandboxHandle): readonly Command[] {
  const api = ["--base-url", sb.baseUrl];
  const select = world.select ?? [];
  const named = (name: string): Command[] => [
    ["status --organization", ["status", "--organization", name, ...api, "--json"]],
    ["import --organization", ["import", "--organization", name, "--out", "imported-org", ...api, "--json"]],
    [
      "import --template",
      ["import", "--all", "--template", name, "--out", "imported-template", ...api, "--json"],
    ],
  ];
  return [
    ["validate", ["validate", "campaign", "--json"]],
    ["preview", ["preview", "campaign", "--json"]],
    ["plan", ["plan", "campaign", ...api, ...select, "--json"]],
    ...(world.saved === true
      ? ([
          ["plan --out", ["plan", "campaign", ...api, ...select, "--out", "plan.json"]],
          ["apply plan.json", ["apply", "plan.json", ...api, "--auto-approve", "--json"]],
        ] as const)
      : []),
    ["apply", ["apply", "campaign", ...api, ...select, "--auto-approve", "--json"]],
    ["status", ["status", "campaign", ...api, "--json"]],
    ["replies plan", ["replies", "plan", "campaign", ...api, "--json"]],
    ["watch --once", ["watch", "campaign", "--once", ...api, "--json"]],
    ...(world.live === true
      ? [
          ["import --all", ["import", "--all", "--out", "imported", ...api, "--json"]] as const,
          ...names.flatMap(named),
        ]
      : []),
  ];
}

/** What a command ends with when it ran to its end (an internal error is exit code 70). */
const ORDINARY_EXIT_CODES: readonly number[] = [0, 1, 2, 3];

/**
 * What each world's commands end with, exactly as each name did in a world of its own (measured
 * before the names were put together, one world per name and kind: the same exit code for every
 * name of a group): each command's exit code, and the commands whose output (stdout and stderr)
 * writes every name of the world (for a command given a name, that name). A name that stopped a
 * command early, before it reached the others, would change one or the other.
 */
interface Expected {
  readonly codes: Readonly<Record<string, number>>;
  readonly naming: readonly string[];
}

/** The commands of every world, and of a world that also saves its plan and applies it. */
const COMMANDS = ["validate", "preview", "plan", "apply", "status", "replies plan", "watch --once"] as const;
const WITH_SAVED_PLAN = [
  ...COMMANDS.slice(0, 3),
  "plan --out",
  "apply plan.json",
  ...COMMANDS.slice(3),
] as const;

/** Each of `commands` ending with exit code 0, but those `failing`, with 1. */
function exitCodes(
  commands: readonly string[],
  failing: readonly string[] = [],
): Readonly<Record<string, number>> {
  return Object.fromEntries(commands.map((c) => [c, failing.includes(c) ? 1 : 0]));
}

/**
 * A world validation refuses: every command ends with exit code 1 and names every name of the
 * world in its findings, but `apply plan.json`, which has no saved plan to read.
 */
function refusedByEveryCommand(commands: readonly string[]): Expected {
  return {
    codes: exitCodes(commands, commands),
    naming: commands.filter((c) => c !== "apply plan.json"),
  };
}

/** The exit codes of the two kinds whose live records hold the names (live records, selectors): the same for both. */
const LIVE_WORLD_CODES = exitCodes(
  [...COMMANDS, "import --all", "status --organization", "import --organization", "import --template"],
  ["plan", "apply", "status --organization", "import --organization", "import --template"],
);

const EXPECTED: Readonly<Record<string, Expected>> = {
  "project-address addresses": {
    codes: exitCodes(WITH_SAVED_PLAN),
    naming: [
      "validate",
      "preview",
      "plan",
      "plan --out",
      "apply plan.json",
      "apply",
      "status",
      "watch --once",
    ],
  },
  "project-address others": refusedByEveryCommand(WITH_SAVED_PLAN),
  "template-name addresses": {
    codes: exitCodes(WITH_SAVED_PLAN, ["replies plan"]),
    naming: ["preview"],
  },
  "template-name others": refusedByEveryCommand(WITH_SAVED_PLAN),
  language: refusedByEveryCommand(COMMANDS),
  "instance addresses": {
    codes: exitCodes(COMMANDS, ["plan", "replies plan"]),
    naming: ["preview", "plan", "apply", "status", "watch --once"],
  },
  "instance others": refusedByEveryCommand(COMMANDS),
  "merge-field": {
    codes: exitCodes(WITH_SAVED_PLAN, ["plan", "plan --out", "apply plan.json", "apply"]),
    naming: ["preview", "plan", "plan --out", "apply"],
  },
  "references addresses": {
    codes: exitCodes(COMMANDS, ["plan", "apply"]),
    naming: ["plan", "apply"],
  },
  "references others": refusedByEveryCommand(COMMANDS),
  capacity: {
    codes: exitCodes(WITH_SAVED_PLAN),
    naming: [],
  },
  "policy-languages": {
    codes: exitCodes(COMMANDS, ["validate", "plan", "apply", "replies plan"]),
    naming: [],
  },
  "email addresses": {
    codes: exitCodes(WITH_SAVED_PLAN, ["plan", "plan --out", "apply plan.json", "apply", "replies plan"]),
    naming: ["plan", "plan --out", "apply plan.json", "apply", "status"],
  },
  "email others": refusedByEveryCommand(WITH_SAVED_PLAN),
  "csv-column": {
    codes: exitCodes(WITH_SAVED_PLAN, ["replies plan"]),
    naming: [],
  },
  "reply-rule addresses": {
    codes: exitCodes(COMMANDS),
    naming: ["preview", "plan", "apply"],
  },
  "reply-rule others": refusedByEveryCommand(COMMANDS),
  "project-id": {
    codes: exitCodes(COMMANDS),
    naming: ["plan", "apply", "status", "watch --once"],
  },
  "live-records": {
    codes: LIVE_WORLD_CODES,
    naming: [
      "plan",
      "apply",
      "status",
      "watch --once",
      "import --all",
      "status --organization",
      "import --organization",
      "import --template",
    ],
  },
  selectors: {
    codes: LIVE_WORLD_CODES,
    naming: ["plan", "apply", "status --organization", "import --organization"],
  },
};

/**
 * The world as text: its files, policy, flags and, if the world changes it, its sandbox fixture
 * (JSON: each name is written as it is, none needs escaping).
 */
function worldText(world: ReservedWorld): string {
  const files = Object.entries(world.files).map(([path, c]) => [
    path,
    typeof c === "string" ? c : JSON.stringify(c),
  ]);
  const fixture = world.fixture === undefined ? null : reservedFixture(world);
  return JSON.stringify([files, world.policy ?? null, world.select ?? [], fixture]);
}

/** How many times `name` is written in `text`. */
const timesWritten = (text: string, name: string): number => text.split(name).length - 1;

/** A kind's worlds, each with the names it holds and the key of its expectations (EXPECTED). */
function worldsOf(kind: Kind): readonly { readonly names: readonly string[]; readonly key: string }[] {
  const groups = groupsOf(kind);
  return groups.map((names, i) => ({
    names,
    key: kind.grouping === "addresses" ? `${kind.id} ${i === 0 ? "addresses" : "others"}` : kind.id,
  }));
}

test("each kind's worlds hold every reserved name, each once, and no world is empty", () => {
  for (const kind of KINDS) {
    const groups = groupsOf(kind);
    expect(
      groups.every((names) => names.length > 0),
      kind.id,
    ).toBe(true);
    expect([...groups.flat()].sort(), kind.id).toEqual([...RESERVED_NAMES].sort());
  }
});

describe.each(KINDS)("as $words", (kind) => {
  test.each(worldsOf(kind))(
    "$names: no internal error in any command, each name reached",
    {
      timeout: 60_000,
    },
    async ({ names, key }) => {
      const world = kind.build(names);
      // The world holds each name at least as often as that name's own world does, which holds it
      // (a builder that loses a name in putting them together, e.g. to a spread or
      // `object[name] = value`, fails here).
      const text = worldText(world);
      for (const name of names) {
        const own = timesWritten(worldText(kind.build([name])), name);
        expect(own, name).toBeGreaterThan(0);
        expect(timesWritten(text, name), name).toBeGreaterThanOrEqual(own);
      }
      const { dir, sb } = await open(world);
      // Every command's failure, said with its command line and stderr: one assertion for the run.
      const failures: string[] = [];
      const expected = EXPECTED[key];
      if (expected === undefined) throw new Error(`no expectations for ${key}`);
      const ran: string[] = [];
      const naming: Record<string, boolean> = {};
      for (const [label, argv] of commands(world, names, sb)) {
        const run = await runCli(argv, {
          cwd: dir,
          env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
          clock: () => sb.clock.nowMs(),
        });
        if (
          /internal error/.test(run.stderr) ||
          !ORDINARY_EXIT_CODES.includes(run.code) ||
          run.code !== expected.codes[label]
        )
          failures.push(
            `${argv.join(" ")}: exit code ${run.code}, not ${expected.codes[label]}\n${run.stderr}`,
          );
        if (!ran.includes(label)) ran.push(label);
        const said = run.stdout + run.stderr;
        const about = names.filter((n) => argv.includes(n));
        naming[label] =
          (naming[label] ?? true) && (about.length > 0 ? about : names).every((n) => said.includes(n));
      }
      expect(failures).toEqual([]);
      expect(ran).toEqual(Object.keys(expected.codes));
      expect(ran.filter((label) => naming[label])).toEqual(expected.naming);
      if (world.outcome !== undefined) expect(await world.outcome.read(sb)).toEqual(world.outcome.expected);
      // Nor in the sandbox, whose fixture records and request bodies held the names.
      expect(sb.bugs).toEqual([]);
    },
  );
});

/**
 * The language server publishes, for each campaign file of each world, exactly what `validate FILE`
 * reports for it (documents checked alone: no workspace folder), and never `lsp.internal-error`.
 * One server for the whole table, every name in turn (a server per name cost a Node process
 * each, 0.6 s of CPU, and showed nothing more); the worlds that differ only in the live world or
 * the command line have nothing of their own to show it.
 */
describe("the language server", () => {
  const offline = KINDS.filter((kind) => {
    const world = kind.build(["constructor"]);
    return world.live !== true && world.select === undefined;
  });
  test("publishes validate's findings for every reserved name as every kind of key", {
    timeout: 600_000,
  }, async () => {
    const server = await start();
    let version = 0;
    for (const kind of offline)
      for (const names of groupsOf(kind)) {
        const world = kind.build(names);
        const dir = writeWorld(world);
        for (const [file, content] of Object.entries(world.files)) {
          if (typeof content === "string") continue;
          const path = join(dir, file);
          const text = stringify(content);
          const uri = pathToFileURL(path).href;
          version += 1;
          await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: "yaml", version, text },
          });
          const published = await server.published(uri, version);
          const said = `${names.join(", ")} as ${kind.words}: ${file}`;
          expect(
            published.diagnostics.map((d) => d.code),
            said,
          ).not.toContain("lsp.internal-error");
          // validateAsLsp gives the findings in this file; those about another file (the policy
          // file) are published at the document's start, their message led by their place.
          const here = (d: { message: unknown }) =>
            !String(d.message).startsWith(`${dir}/campaignctl.policy.yaml:`);
          expect(essentials(published.diagnostics.filter(here)), said).toEqual(
            await validateAsLsp(path, text),
          );
          await server.connection.sendNotification(DidCloseTextDocumentNotification.type, {
            textDocument: { uri },
          });
          await server.published(uri);
        }
      }
    expect(await stop(server)).toBe(0);
    expect(server.stderr()).toBe("");
  });
});
