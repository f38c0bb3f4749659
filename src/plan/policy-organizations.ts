/**
 * The organizations a policy names (a budget's `organization`, `require_suppression_lists`'
 * `organizations`, `places`) against those this run's keys see (`GET /organizations`). A rule
 * matches an organization by its id or its name exactly, so a name written with another case or
 * spacing, or one letter off (`Adams County Democrat`), matches nothing: the rule then applies to
 * none of that organization's projects, in silence (a budget that caps nothing, a suppression list
 * never required). Such a name is said:
 * - the error `policy.organization-unmatched` when it equals a seen organization's name but for
 *   case, spacing or Unicode compatibility forms (NFKC): a slip, since the rule is meant for it;
 * - the warning of the same code, with the name it is closest to, when it is a likely typo of one.
 * A name far from every seen one is not said: a policy above many organizations names some this
 * run's keys do not see. Pure.
 */
import type { Organization } from "../contract/resources.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import type { Policy } from "../policy/model.js";
import { didYouMean } from "../text/did-you-mean.js";

/** A name the policy gives an organization: the rule that gives it, and where. */
interface Named {
  readonly name: string;
  readonly rule: string;
  readonly range: SourceRange | undefined;
}

function namesOf(policy: Policy): Named[] {
  const { rules, ranges } = policy;
  return [
    ...(rules.budgets ?? []).flatMap((b) =>
      b.organization === undefined ? [] : [{ name: b.organization, rule: "budgets", range: ranges.budgets }],
    ),
    ...Object.keys(rules.require_suppression_lists?.organizations ?? {}).map((name) => ({
      name,
      rule: "require_suppression_lists",
      range: ranges.require_suppression_lists,
    })),
    ...(policy.places ?? []).map((p) => ({ name: p.organization, rule: "places", range: p.range })),
  ];
}

/** A name as compared for a slip: compatibility forms folded, lower-cased, blanks collapsed. */
const folded = (name: string) => name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

export function policyOrganizationFindings(
  policy: Policy | null,
  organizations: readonly Organization[],
): Diagnostic[] {
  if (policy === null || organizations.length === 0) return [];
  const exact = new Set(organizations.flatMap((o) => [o.id, o.display_name]));
  const names = organizations.map((o) => o.display_name);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const named of namesOf(policy)) {
    if (exact.has(named.name) || seen.has(`${named.rule}\u0000${named.name}`)) continue;
    seen.add(`${named.rule}\u0000${named.name}`);
    const slip = names.find((n) => folded(n) === folded(named.name));
    const near = slip ?? didYouMean(named.name, names);
    if (near === undefined) continue;
    out.push({
      severity: slip === undefined ? "warning" : "error",
      code: "policy.organization-unmatched",
      message:
        slip === undefined
          ? `the policy's ${named.rule} names the organization "${named.name}", which no organization this run's keys see is named: the rule applies to none of its projects (did you mean "${near}"?)`
          : `the policy's ${named.rule} names the organization "${named.name}", which differs from "${near}" only in case or spacing: organizations match exactly, so the rule applies to none of its projects`,
      ...(named.range === undefined ? {} : { range: named.range }),
      hint: `write the organization's name as the API gives it ("${near}") or its id`,
    });
  }
  return out;
}
