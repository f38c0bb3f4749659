/**
 * The cross-organization write rule (issue 26, issue 33), implemented once and pure: the judge
 * shows it (src/plan/project-plan.ts) and the write port enforces it (routing/write-guard.ts), both
 * through {@link crossOrganizationVerdict}.
 *
 * A write whose key belongs to another organization than the resource's owner (a state party's key
 * acting in a county's project, conversation or email list) is refused unless
 * `--allow-cross-organization-key` says so: the API deduplicates idempotency keys per calling
 * organization, so a run with that key is not deduplicated against a run with the owner's own key
 * (both would send), and consent does not transfer between senders. A pause sends nothing, so any
 * key that may act on the project may pause it.
 */

/** Every kind of write the API takes from campaignctl. */
export type WriteKind = "test" | "schedule" | "pause" | "reply" | "email-upsert";

/** The one flag that lets a key of another organization write. */
export const CROSS_ORGANIZATION_FLAG = "--allow-cross-organization-key";

/** The facts the rule judges. Organization ids as the API gives them. */
export interface CrossOrganizationFacts {
  readonly write: WriteKind;
  /** The root organization of the key the write would go with. */
  readonly keyOrganization: string;
  /** The organization that owns what is written (the project; a conversation's project; an email list). */
  readonly ownerOrganization: string;
  /** `--allow-cross-organization-key`. */
  readonly allowed: boolean;
}

/**
 * What the rule says of one write:
 * - `own-key`: the key is the owner's own;
 * - `pause`: another organization's key, and a pause (it sends nothing): goes;
 * - `refused`: another organization's key: not sent (an error);
 * - `allowed`: another organization's key, let through by the flag (a warning).
 */
export type CrossOrganizationVerdict = "own-key" | "pause" | "refused" | "allowed";

export function crossOrganizationVerdict(facts: CrossOrganizationFacts): CrossOrganizationVerdict {
  if (facts.keyOrganization === facts.ownerOrganization) return "own-key";
  if (facts.write === "pause") return "pause";
  return facts.allowed ? "allowed" : "refused";
}

/**
 * Why a key of another organization may not write, in the words every refusal and warning use;
 * `owner` names what is written ("the project", "the email list").
 */
export function crossOrganizationReason(
  keyOrganization: string,
  ownerOrganization: string,
  owner: string,
): string {
  return `the API key belongs to organization ${keyOrganization}, ${owner} to ${ownerOrganization}; the API deduplicates idempotency keys per organization, so a run with a key of another organization is not deduplicated against a run with ${owner}'s own organization's key, and consent does not transfer between senders`;
}

/** What to do about a refusal, for the owner `ownerOrganization`. */
export function crossOrganizationHint(ownerOrganization: string): string {
  return `use a key of the owner's own organization (${ownerOrganization}), exported as CAMPAIGNCTL_API_KEY_<SLUG>; if every pipeline that writes there uses this same key on purpose, pass ${CROSS_ORGANIZATION_FLAG}`;
}

/** The hint of a write the flag let through. */
export const CROSS_ORGANIZATION_ALLOWED_HINT = "run every pipeline that writes there with this same key";
