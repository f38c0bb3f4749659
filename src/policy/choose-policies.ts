/**
 * Which policy files make up a run's policy, given the policy files found above each campaign file:
 * a pure choice (an ambiguity, or the layers farthest first).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Place } from "./policy-chain.js";

/**
 * A campaign file (as shown) and the policy files above it, farthest first; `identity` of each is
 * the same for two spellings of one policy file.
 */
export interface FoundPolicies {
  readonly file: string;
  readonly chain: readonly (Place & { readonly identity: string })[];
  /** Misspelt policy files on the way up (see policyChain); none when omitted. */
  readonly nearMisses?: readonly Place[];
  /** Policy files above the outermost repository root (see policyChain); none when omitted. */
  readonly outside?: readonly (Place & { readonly root: Place })[];
}

export type PolicyChoice =
  | { readonly kind: "layers"; readonly layers: readonly Place[] }
  | { readonly kind: "ambiguous"; readonly diagnostic: Diagnostic };

/**
 * The policy files that make up the run's policy, farthest first. When the campaign files lead to
 * different chains of policy files, that is an ambiguity (naming the nearest policy of each and the
 * first file that leads to it), unless `--policy` is given: then every policy file found above any
 * campaign file is a floor (farthest first by depth), and `--policy` goes on top of them. A file
 * with no policy above it does not make a run ambiguous: the others' policies apply to the run.
 */
export function choosePolicies(found: readonly FoundPolicies[], flagGiven: boolean): PolicyChoice {
  const withPolicy = found.filter((f) => f.chain.length > 0);
  const keyOf = (f: FoundPolicies) => f.chain.map((p) => p.identity).join("\n");
  const byChain = new Map<string, FoundPolicies>();
  for (const f of withPolicy) if (!byChain.has(keyOf(f))) byChain.set(keyOf(f), f);
  const distinct = [...byChain.values()];
  if (distinct.length > 1 && !flagGiven)
    return {
      kind: "ambiguous",
      diagnostic: {
        severity: "error",
        code: "policy.ambiguous",
        message: `the campaign files lead to different policy files: ${distinct
          .map((f) => `${f.chain.at(-1)?.shown} (nearest to ${f.file})`)
          .join(", ")}`,
        hint: "run them separately, or name the policy that applies on top of every one found with --policy FILE (see docs/policy.md)",
      },
    };
  const seen = new Map<string, Place & { readonly identity: string }>();
  for (const f of distinct) for (const p of f.chain) if (!seen.has(p.identity)) seen.set(p.identity, p);
  const depth = (p: Place) => p.absolute.split(/[\\/]/).length;
  const layers = [...seen.values()].sort((a, b) => depth(a) - depth(b));
  return { kind: "layers", layers };
}
