/**
 * Which `apply` this is: a saved plan or campaign files. A saved plan is recognised by its content,
 * whatever its name (`apply tfplan` as Terraform users write it; see `looksLikePlanDocument`), or by
 * a `.json` name (so a plan of another format version still gets its clear diagnostic). A saved plan
 * mixed with campaign files is an error: which would be the reviewed expectation?
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { looksLikePlanDocument } from "../src/report/plan-schema.js";

/** A plan file is read only to look at it when it is at most this big (plans of 1,000 projects are ~3 MB). */
const MAX_SNIFF_BYTES = 64 * 1024 * 1024;

/**
 * What the paths of `apply` are. Invariant: `mixed` carries one error diagnostic.
 */
export type ApplyInput =
  | { readonly kind: "files" }
  | { readonly kind: "plan"; readonly file: string }
  | { readonly kind: "mixed"; readonly diagnostic: Diagnostic };

/** Looks at each path (relative to `cwd`) that is a regular file: is it a saved plan? */
export function classifyApplyPaths(paths: readonly string[], cwd: string): ApplyInput {
  const plans = paths.filter((p) => isPlanFile(resolve(cwd, p), p));
  if (plans.length === 0) return { kind: "files" };
  const [first] = plans;
  if (paths.length === 1 && first !== undefined) return { kind: "plan", file: first };
  return {
    kind: "mixed",
    diagnostic: {
      severity: "error",
      code: "apply.plan-mixed-with-files",
      message: `${plans.join(", ")} ${plans.length === 1 ? "is a saved plan" : "are saved plans"}, given together with ${paths.length - plans.length === 0 ? "another saved plan" : "campaign files"}; apply takes one saved plan alone, or campaign files`,
      hint: `apply the saved plan alone (\`campaignctl apply ${first}\`): it names the files it was made from`,
    },
  };
}

function isPlanFile(path: string, given: string): boolean {
  try {
    const st = statSync(path);
    if (!st.isFile()) return false;
    if (given.toLowerCase().endsWith(".json")) return true;
    if (st.size > MAX_SNIFF_BYTES) return false;
    return looksLikePlanDocument(readFileSync(path, "utf8"));
  } catch {
    // Unreadable or missing: not a plan; loading it as a campaign file reports the problem.
    return given.toLowerCase().endsWith(".json");
  }
}
