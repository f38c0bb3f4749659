/**
 * Names are data (issue 34, point 2): every reserved JavaScript name (`__proto__`, `constructor`,
 * `toString`, ...) as every kind of key a user names (addresses, templates, instances, languages,
 * merge fields, references, capacity brands, policy maps, email lists and CSV columns, reply rules,
 * ids, live records, selectors) makes no internal error in any command: validate, preview, plan,
 * apply, status, import, replies plan and watch each end with an ordinary exit code, and every JSON
 * document they print is valid against its schema (runCli checks it). Table-driven: names x kinds.
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
  KINDS,
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

/**
 * Each command of the run, with its arguments (API commands against the world's sandbox). The
 * commands that take the name as an argument, or read only the live world (import), run for the
 * kinds that are about them.
 */
function commands(world: ReservedWorld, name: string, sb: SandboxHandle): readonly (readonly string[])[] {
  const api = ["--base-url", sb.baseUrl];
  const select = world.select ?? [];
  const named: (readonly string[])[] = [
    ["status", "--organization", name, ...api, "--json"],
    ["import", "--all", "--out", "imported", ...api, "--json"],
    ["import", "--organization", name, "--out", "imported-org", ...api, "--json"],
    ["import", "--all", "--template", name, "--out", "imported-template", ...api, "--json"],
  ];
  return [
    ["validate", "campaign", "--json"],
    ["preview", "campaign", "--json"],
    ["plan", "campaign", ...api, ...select, "--json"],
    ...(world.saved === true
      ? [
          ["plan", "campaign", ...api, ...select, "--out", "plan.json"],
          ["apply", "plan.json", ...api, "--auto-approve", "--json"],
        ]
      : []),
    ["apply", "campaign", ...api, ...select, "--auto-approve", "--json"],
    ["status", "campaign", ...api, "--json"],
    ["replies", "plan", "campaign", ...api, "--json"],
    ["watch", "campaign", "--once", ...api, "--json"],
    ...(world.live === true ? named : []),
  ];
}

/** What a command ends with when it ran to its end (an internal error is exit code 70). */
const ORDINARY_EXIT_CODES: readonly number[] = [0, 1, 2, 3];

describe.each(RESERVED_NAMES)("the name %s", (name) => {
  test.each(KINDS)("as %s: no internal error in any command", { timeout: 60_000 }, async (_kind, build) => {
    const world = build(name);
    const { dir, sb } = await open(world);
    // Every command's failure, said with its command line and stderr: one assertion for the run
    // (two per command cost the test runner more than some of the commands).
    const failures: string[] = [];
    for (const argv of commands(world, name, sb)) {
      const run = await runCli(argv, {
        cwd: dir,
        env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
        clock: () => sb.clock.nowMs(),
      });
      if (/internal error/.test(run.stderr) || !ORDINARY_EXIT_CODES.includes(run.code))
        failures.push(`${argv.join(" ")}: exit code ${run.code}\n${run.stderr}`);
    }
    expect(failures).toEqual([]);
    if (world.outcome !== undefined) expect(await world.outcome.read(sb)).toEqual(world.outcome.expected);
    // Nor in the sandbox, whose fixture records and request bodies held the name.
    expect(sb.bugs).toEqual([]);
  });
});

/**
 * The language server publishes, for each campaign file of each world, exactly what `validate FILE`
 * reports for it (documents checked alone: no workspace folder), and never `lsp.internal-error`.
 * One server for the whole table, every name in turn (a server per name cost a Node process
 * each, 0.6 s of CPU, and showed nothing more); the worlds that differ only in the live world or
 * the command line have nothing of their own to show it.
 */
describe("the language server", () => {
  const offline = KINDS.filter(([, build]) => {
    const world = build("constructor");
    return world.live !== true && world.select === undefined;
  });
  test("publishes validate's findings for every reserved name as every kind of key", {
    timeout: 600_000,
  }, async () => {
    const server = await start();
    let version = 0;
    for (const name of RESERVED_NAMES)
      for (const [kind, build] of offline) {
        const world = build(name);
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
          const said = `${name} as ${kind}: ${file}`;
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
