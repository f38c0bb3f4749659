/**
 * Which `apply` this is: a saved plan or campaign files. A saved plan is recognised by its content,
 * whatever its name (`apply tfplan` as Terraform users write it; see `looksLikePlanDocument`), or by
 * a `.json` name that does not parse (a damaged plan still gets its clear diagnostic). A saved plan
 * mixed with campaign files is an error: which would be the reviewed expectation? So is a file that
 * is neither (a Markdown report, a JUnit XML; see `fileKindOf`): one clear error, before anything is
 * read as YAML or any connection is opened.
 */
import { resolve } from "node:path";
import { describeForeign, type ForeignFormat, fileKindOf } from "../../src/campaign/file-kind.js";
import { fileStart } from "../../src/campaign/source-range.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { looksLikePlanDocument } from "../../src/report/plan-schema.js";
import { withRegularFileSync } from "./regular-file.js";

/** A plan file is read only to look at it when it is at most this big (plans of 1,000 projects are ~3 MB). */
const MAX_SNIFF_BYTES = 64 * 1024 * 1024;

/**
 * What the paths of `apply` are. Invariant: `mixed` and `neither` carry one error diagnostic.
 */
export type ApplyInput =
  | { readonly kind: "files" }
  | { readonly kind: "plan"; readonly file: string }
  | { readonly kind: "mixed"; readonly diagnostic: Diagnostic }
  | { readonly kind: "neither"; readonly diagnostic: Diagnostic };

/** What one path given to `apply` is. */
type PathKind =
  | { readonly kind: "plan" }
  | { readonly kind: "files" }
  | { readonly kind: "foreign"; readonly format: ForeignFormat };

/** Looks at each path (relative to `cwd`) that is a regular file: is it a saved plan, or neither? */
export function classifyApplyPaths(paths: readonly string[], cwd: string): ApplyInput {
  const kinds = paths.map((p) => ({ path: p, kind: pathKind(resolve(cwd, p), p) }));
  const foreign = kinds.find((k) => k.kind.kind === "foreign");
  if (foreign !== undefined && foreign.kind.kind === "foreign")
    return { kind: "neither", diagnostic: neither(foreign.path, foreign.kind.format) };
  const plans = kinds.filter((k) => k.kind.kind === "plan").map((k) => k.path);
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

function neither(path: string, format: ForeignFormat): Diagnostic {
  return {
    severity: "error",
    code: "apply.not-plan-or-campaign",
    message: `neither a saved plan nor a campaign file: it looks like ${describeForeign(format)}`,
    range: fileStart(path),
    hint: "`apply FILE` takes a saved plan written by `campaignctl plan --out FILE`, or campaign files and directories (YAML that starts with `version: 1`)",
  };
}

function pathKind(path: string, given: string): PathKind {
  const jsonName = given.toLowerCase().endsWith(".json");
  // Only a regular file is looked at (regular-file.ts); loading any other path as a campaign file
  // refuses it at once (a named pipe, a device) or walks it (a directory).
  const read = withRegularFileSync(path, ({ size }, bytes): PathKind => {
    if (size > MAX_SNIFF_BYTES) return { kind: jsonName ? "plan" : "files" };
    return kindOfText(bytes().toString("utf8"), given, jsonName);
  });
  if (read.ok) return read.value;
  // Unreadable or missing: not a plan; loading it as a campaign file reports the problem.
  return read.kind === "not-regular" ? { kind: "files" } : { kind: jsonName ? "plan" : "files" };
}

function kindOfText(text: string, given: string, jsonName: boolean): PathKind {
  if (looksLikePlanDocument(text)) return { kind: "plan" };
  const kind = fileKindOf(given, text);
  switch (kind.kind) {
    case "campaign":
      return { kind: "files" };
    case "plan":
      return kind;
    case "foreign":
      // A `.json` file that does not parse is a damaged plan: its diagnostic says so.
      return jsonName && !parsesAsJson(text) ? { kind: "plan" } : kind;
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
