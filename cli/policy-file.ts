/**
 * Finding and reading the policy file, the IO half of policy as code: `--policy FILE`, else
 * `campaignctl.policy.yaml` in a campaign directory given on the command line, or beside a campaign
 * file given (so a saved plan, which names files, finds the policy of the directory it was made
 * from). Two different ones found that way are ambiguous (name one with --policy). The text is
 * parsed by the pure `parsePolicy`.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { POLICY_FILE_NAME } from "../src/campaign/read-files.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { Policy } from "../src/policy/model.js";
import { parsePolicy } from "../src/policy/parse.js";
import { errnoCode } from "./files.js";

export type LoadedPolicy =
  | { readonly ok: true; readonly policy: Policy | null; readonly text: string | null }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The policy for a command run on `paths` (relative to `cwd`), or null when there is none. */
export function loadPolicy(flag: string | undefined, paths: readonly string[], cwd: string): LoadedPolicy {
  let shown: string;
  if (flag !== undefined) shown = flag;
  else {
    // Shown as the paths were given (`examples/`, `/abs/dir`, `../other`), like the campaign files
    // are; two spellings of one file are one policy.
    const byFile = new Map<string, string>();
    for (const p of paths) {
      const dir =
        statSync(resolve(cwd, p), { throwIfNoEntry: false })?.isDirectory() === true ? p : dirname(p);
      const policyPath = join(dir, POLICY_FILE_NAME);
      const file = resolve(cwd, policyPath);
      if (statSync(file, { throwIfNoEntry: false })?.isFile() === true && !byFile.has(file))
        byFile.set(file, policyPath);
    }
    const found = [...byFile.values()];
    if (found.length === 0) return { ok: true, policy: null, text: null };
    if (found.length > 1)
      return {
        ok: false,
        diagnostics: [
          {
            severity: "error",
            code: "policy.ambiguous",
            message: `more than one policy file applies: ${found.join(", ")}`,
            hint: "name the one that applies with --policy FILE",
          },
        ],
      };
    shown = found[0] ?? POLICY_FILE_NAME;
  }
  let text: string;
  try {
    text = readFileSync(resolve(cwd, shown), "utf8");
  } catch (error) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "policy.file-unreadable",
          message: `cannot read the policy file ${shown} (${errnoCode(error)})`,
          hint: "pass an existing policy file with --policy FILE (see docs/policy.md)",
        },
      ],
    };
  }
  const parsed = parsePolicy(shown, text);
  return parsed.ok
    ? { ok: true, policy: parsed.policy, text }
    : { ok: false, diagnostics: parsed.diagnostics };
}
