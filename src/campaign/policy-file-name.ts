/**
 * The names a policy file goes by, and the names that look like one misspelt. A policy file is
 * `campaignctl.policy.yaml` or `campaignctl.policy.yml`; it is never read as a campaign file, and
 * neither is a near miss (which the policy discovery reports as an error instead). Pure.
 */
import { editDistance } from "../text/did-you-mean.js";

/** The names of a policy file, the canonical one first. */
export const POLICY_FILE_NAMES = ["campaignctl.policy.yaml", "campaignctl.policy.yml"] as const;

/** The canonical name of a policy file. */
export const POLICY_FILE_NAME = POLICY_FILE_NAMES[0];

export type PolicyFileName = (typeof POLICY_FILE_NAMES)[number];

/** Is `name` (a file name, no directory) a policy file's name? */
export function isPolicyFileName(name: string): name is PolicyFileName {
  return (POLICY_FILE_NAMES as readonly string[]).includes(name);
}

/**
 * The policy file name `name` is likely a misspelling of (a case variant, a typo of up to three
 * characters, or a YAML file name that begins with `campaignctl` and speaks of a policy), or undefined when
 * it is a policy file's own name or not close to one. A campaign file named like `campaignctl.yaml`
 * or `voting-policy.yaml` is not a near miss, nor is a backup (`campaignctl.policy.yaml~`, `.bak`).
 */
export function policyNearMiss(name: string): PolicyFileName | undefined {
  if (isPolicyFileName(name)) return undefined;
  // An editor's backup or a saved copy of a policy file (`campaignctl.policy.yaml~`, `.bak`,
  // `.orig`) is not a misspelling of one.
  if (POLICY_FILE_NAMES.some((n) => name.startsWith(n) && /^[~#.]/.test(name.slice(n.length))))
    return undefined;
  const lower = name.toLowerCase();
  let best: PolicyFileName | undefined;
  let bestDistance = 4;
  for (const candidate of POLICY_FILE_NAMES) {
    const distance = editDistance(lower, candidate, 3);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  if (/^\.?campaignctl/.test(lower) && lower.includes("polic") && /\.ya?ml$/.test(lower))
    return lower.includes(".yml") ? "campaignctl.policy.yml" : POLICY_FILE_NAME;
  return undefined;
}
