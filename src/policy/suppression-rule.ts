/**
 * The policy's `require_suppression_lists` rule (issue 37 point 4): suppression lists every test
 * and send must carry, for every organization (`all_organizations`) or per organization (by name
 * or id). A list is named by its name or id; a project carries it when one of its
 * `suppression_lists` references goes by that name or id (in a plan: the live list's id and name
 * too). Missing is the error `policy.require-suppression-lists` at the project's
 * `suppression_lists` key (its key when it has none), which blocks its test and schedule before any
 * write. This file holds the rule's value, what "tighter" means, its words and its judgement. Pure.
 */
import { own } from "../text/names.js";

/**
 * The rule's value. Invariants (the schema's): at least one of the two keys; every list name is
 * non-empty; `organizations` maps an organization's name or id to a non-empty list of lists.
 */
export interface SuppressionRule {
  readonly all_organizations?: readonly string[];
  readonly organizations?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The lists the rule requires of a send by an organization known by any of `organization` (names
 * and ids; empty when unknown: then only `all_organizations`), each once, in the rule's order.
 */
export function requiredSuppressionLists(rule: SuppressionRule, organization: readonly string[]): string[] {
  const perOrganization = organization.flatMap((o) => own(rule.organizations, o) ?? []);
  return [...new Set([...(rule.all_organizations ?? []), ...perOrganization])];
}

/** Every (scope, list) pair of the rule: `*` for every organization. */
function pairs(rule: SuppressionRule | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of rule?.all_organizations ?? []) out.add(`*\u0000${list}`);
  for (const [organization, lists] of Object.entries(rule?.organizations ?? {}))
    for (const list of lists) out.add(`${organization}\u0000${list}`);
  return out;
}

/**
 * Is `next` at least as strict as `current`? It requires every list `current` requires, for the
 * same organizations (or for every organization, which covers each one).
 */
export function suppressionAtLeastAsStrict(
  next: SuppressionRule | undefined,
  current: SuppressionRule | undefined,
): boolean {
  const n = pairs(next);
  const everywhere = new Set(next?.all_organizations ?? []);
  return [...pairs(current)].every((p) => n.has(p) || everywhere.has(p.slice(p.indexOf("\u0000") + 1)));
}

/** The rule in words: `Strike List (every organization); Riverside DNC (Riverside Democrats)`. */
export function suppressionRuleText(rule: SuppressionRule | undefined): string {
  if (rule === undefined) return "off";
  const parts = [
    ...(rule.all_organizations ?? []).map((l) => `${l} (every organization)`),
    ...Object.entries(rule.organizations ?? {}).flatMap(([o, lists]) => lists.map((l) => `${l} (${o})`)),
  ];
  return parts.join("; ");
}

/**
 * The lists `rule` requires that a send does not carry, in the rule's order. The caller judges only
 * a project that sends (src/policy/sending.ts): a draft, a paused or a completed one sends nothing.
 * `carried` holds, for each of the project's references, every name and id it goes by.
 */
export function missingSuppressionLists(
  rule: SuppressionRule,
  organization: readonly string[],
  carried: readonly (readonly string[])[],
): string[] {
  const names = new Set(carried.flat());
  return requiredSuppressionLists(rule, organization).filter((list) => !names.has(list));
}
