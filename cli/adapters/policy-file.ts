/**
 * Finding and reading the policy files, the IO half of policy as code: every
 * `campaignctl.policy.yaml` (or `.yml`) above each campaign file the run loads (in the file's
 * directory, then in each parent directory up to the OUTERMOST repository root, the farthest
 * directory holding a `.git` file or directory, or up to the filesystem root outside a repository;
 * a nested repository does not end the search), combined as floors with
 * `--policy FILE` on top (src/policy/combine.ts): no file and no flag can drop or loosen a rule
 * silently. Discovery starts from the files read, never from the paths given, so `plan DIR` and
 * `apply PLANFILE` (which names the same files) find the same policy. Files that lead to different
 * chains of policy files are ambiguous unless --policy is given; a run with no campaign files has no
 * discovered policy. A misspelt policy file on the way is an error, never skipped, and
 * `--require-policy` fails a run that finds none. The walk and the choice are pure decisions over a
 * look into each directory (src/policy/policy-chain.ts, src/policy/choose-policies.ts; the looking
 * is cli/policy-discovery/discover.ts, the errors about the files found
 * cli/policy-discovery/diagnostics.ts); the texts are parsed by the pure `parsePolicy`.
 */
import { resolve } from "node:path";
import { sha256Hex } from "../../src/campaign/decode.js";
import { POLICY_FILE_NAME, POLICY_FILE_NAMES } from "../../src/campaign/policy-file-name.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { choosePolicies } from "../../src/policy/choose-policies.js";
import { combinePolicies } from "../../src/policy/combine.js";
import type { Policy, PolicyRuleName } from "../../src/policy/model.js";
import { type ParsedPolicy, parsePolicy } from "../../src/policy/parse.js";
import { boundedMemo } from "../../src/text/bounded-memo.js";
import { misnamedFiles, outsideFiles, twinFiles } from "../policy-discovery/diagnostics.js";
import { discover, identity, type LookCache } from "../policy-discovery/discover.js";
import { notRegularFile, readRegularFileSync } from "./regular-file.js";

/**
 * The policy in force for a run: combined from every policy file above its campaign files and
 * `--policy` (see src/policy/combine.ts), with the text of each file read (for source excerpts) and
 * the warnings that name each loosening; or the problems that stop the run (an unreadable or
 * invalid policy file, an ambiguity, a loosening not asked for).
 */
export type LoadedPolicy =
  | {
      readonly ok: true;
      readonly policy: Policy | null;
      readonly texts: ReadonlyMap<string, string>;
      /**
       * The sha256 (hex) of each policy file's bytes as read, by the same names as `texts`: computed
       * when first read (`plan` reads it, `validate` does not: no `crypto` at its start, issue 36).
       */
      readonly digests: ReadonlyMap<string, string>;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The flags that shape the run's policy. */
export interface PolicyFlags {
  /** `--policy FILE`: one more policy on top of those found (never instead of them). */
  readonly policy?: string;
  /** `--loosen-policy RULE` (repeatable): rules turned off for this run, shown in every output. */
  readonly loosenPolicy?: readonly PolicyRuleName[];
  /** `--require-policy`: a run that finds no policy file (and is given no --policy) fails. */
  readonly requirePolicy?: boolean;
}

/** The flag that makes a run without a policy fail. */
export const REQUIRE_POLICY_FLAG = "--require-policy";

/**
 * The policy for a run whose campaign files are `files` (each file's path as shown, relative to
 * `cwd` or absolute): every policy file above them combined as floors, `--policy` on top, and the
 * `--loosen-policy` rules turned off. A misspelt policy file on the way (`Campaignctl.policy.yaml`,
 * `campaignctl.polcy.yaml`) stops the run with `policy.file-misnamed`; two policy files in one
 * directory (`.yaml` and `.yml`) with `policy.ambiguous`; with `--require-policy`, finding none
 * with `policy.required`. Call it after reading the files. `looks` (the language server's; by
 * default the process's own) keeps directory listings while each directory is unchanged
 * (discover.ts).
 */
export function loadPolicy(
  flags: PolicyFlags,
  files: readonly string[],
  cwd: string,
  looks?: LookCache,
): LoadedPolicy {
  const found = discover(files, cwd, looks);
  const misnamed = misnamedFiles(found);
  if (misnamed.length > 0) return { ok: false, diagnostics: misnamed };
  const outside = outsideFiles(
    found,
    flags.policy === undefined ? undefined : identity(resolve(cwd, flags.policy)),
  );
  if (outside.length > 0) return { ok: false, diagnostics: outside };
  const twins = twinFiles(found);
  if (twins.length > 0) return { ok: false, diagnostics: twins };
  const choice = choosePolicies(found, flags.policy !== undefined);
  if (choice.kind === "ambiguous") return { ok: false, diagnostics: [choice.diagnostic] };
  const shown = [...choice.layers.map((p) => p.shown), ...(flags.policy === undefined ? [] : [flags.policy])];
  if (flags.requirePolicy === true && shown.length === 0)
    return { ok: false, diagnostics: [requiredDiagnostic(files.length)] };
  const texts = new Map<string, string>();
  const bytes = new Map<string, Uint8Array>();
  const layers: Policy[] = [];
  const problems: Diagnostic[] = [];
  for (const [i, file] of shown.entries()) {
    // Only a regular file is read (regular-file.ts): a named pipe would be waited on for ever.
    const read = readRegularFileSync(resolve(cwd, file));
    if (!read.ok) {
      const flag = flags.policy !== undefined && i === shown.length - 1;
      problems.push(
        read.kind === "not-regular"
          ? notRegularFile(flag ? "--policy" : "the policy file", file, read)
          : {
              severity: "error",
              code: "policy.file-unreadable",
              message: `cannot read the policy file ${file} (${read.reason})`,
              hint: "pass an existing policy file with --policy FILE (see docs/policy.md)",
            },
      );
      continue;
    }
    bytes.set(file, read.bytes);
    const text = read.bytes.toString("utf8");
    texts.set(file, text);
    const parsed = parsedPolicies.get(`${file}\u0000${text}`, () => parsePolicy(file, text));
    if (parsed.ok) layers.push(parsed.policy);
    else problems.push(...parsed.diagnostics);
  }
  if (problems.length > 0) return { ok: false, diagnostics: problems };
  const combined = combinePolicies(layers, flags.loosenPolicy ?? []);
  if (combined.diagnostics.some((d) => d.severity === "error"))
    return { ok: false, diagnostics: combined.diagnostics };
  let digests: ReadonlyMap<string, string> | undefined;
  return {
    ok: true,
    policy: combined.policy,
    texts,
    get digests() {
      digests ??= new Map([...bytes].map(([file, b]) => [file, sha256Hex(b)]));
      return digests;
    },
    diagnostics: combined.diagnostics,
  };
}

/**
 * Policy files parsed in this process, by name as shown and text (src/text/bounded-memo.ts, each kept parse frozen): a long-lived
 * process (the language server, watch) and in-process runs parse an unchanged policy file once.
 * Policy files are small; one over 1 MiB is parsed every time.
 */
const parsedPolicies = boundedMemo<ParsedPolicy>({ max: 32, maxKeyLength: 1 << 20, freeze: true });

function requiredDiagnostic(fileCount: number): Diagnostic {
  return {
    severity: "error",
    code: "policy.required",
    message: `${REQUIRE_POLICY_FLAG}: no policy file applies to ${fileCount === 1 ? "the campaign file" : `the ${fileCount} campaign files`} (no ${POLICY_FILE_NAMES.join(" or ")} in their directories or any above them, up to the outermost repository root), and no --policy FILE was given`,
    hint: `add ${POLICY_FILE_NAME} at the repository root (see docs/policy.md), or name one with --policy FILE`,
  };
}
