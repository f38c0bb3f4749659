/**
 * One finding at a template's value, reported once (issue 33). The rules judge each project expanded
 * from a template on its own (the lint, the loader's checks, the policy), so a value written once in
 * a template (an accented letter of a variant, a reply keyword in the file's defaults) is found once
 * per instance. Where findings are gathered (validate, the language server, plan, preview), those
 * findings are grouped: findings at the same value (same template, code, severity and range) that
 * say the same thing but for the instance's name become one, whose subject is the template
 * (``template `gotv` (60 instances)``) and whose `related` lists every instance it is for, each
 * marked (`RelatedInformation.instance`, set by template-origin.ts).
 *
 * Invariants: a finding at an instance's own value (its `related` names the template, unmarked)
 * stays per instance; findings whose words differ between instances (the segments of a variant
 * filled with one instance's own `merge_defaults`) stay apart, one per wording with its instances,
 * so no instance is listed under figures that are not its own; a lone finding is returned as it
 * was; grouping twice changes nothing (a finding with several instances is left as it is); each
 * group takes the place of its first finding. The result does not depend on the order in which the
 * instances' findings come (the language server puts an edited instance's findings last): a group
 * lists its instances in the order they are written, and groups at one place with one code come in
 * the order of their first instance. Pure.
 */
import type { Diagnostic, InstanceRef, RelatedInformation, SourceRange } from "../diagnostics/diagnostic.js";

/** A related place that is a template instance. */
type InstancePlace = RelatedInformation & { readonly instance: InstanceRef };

function isInstancePlace(r: RelatedInformation): r is InstancePlace {
  return r.instance !== undefined;
}

/** The instances a finding is for (its marked related places). */
export function instancePlaces(d: Diagnostic): InstancePlace[] {
  return (d.related ?? []).filter(isInstancePlace);
}

/** Stands for the instance's name in a finding's words while findings are compared. */
const SUBJECT = "\u0000";

/**
 * `text` with the instance's name where it names the finding's subject, as SUBJECT: `x` opening the
 * text before `:` or a space, else its first mention, ``project `x` `` or `` `x` ``. A later mention
 * is left, so the finding is not grouped: words that differ are never merged. Only the first: a
 * finding quotes other names too (a reply rule `hours`), and an instance named like one of them
 * (`hours`) would read its finding as saying something else than the others', and stand apart.
 */
function withoutInstance(text: string, address: string): string {
  const next = text.charAt(address.length);
  if (text.startsWith(address) && (next === ":" || next === " "))
    return `${SUBJECT}${text.slice(address.length)}`;
  const quoted = `\`${address}\``;
  const at = text.indexOf(quoted);
  if (at < 0) return text;
  const from = text.startsWith("project ", at - 8) && at >= 8 ? at - 8 : at;
  return `${text.slice(0, from)}${SUBJECT}${text.slice(at + quoted.length)}`;
}

const place = (range: SourceRange | undefined) =>
  range === undefined ? null : [range.file, range.start.offset, range.end.offset];

/**
 * Group keys already made, by finding (findings are never changed; the language server hands the
 * same finding objects to every check while their places do not move).
 */
const keys = new WeakMap<Diagnostic, string | null>();

/** What findings at one value for different instances share when they say the same thing. */
function groupKey(d: Diagnostic, own: InstancePlace): string | undefined {
  const known = keys.get(d);
  if (known !== undefined) return known ?? undefined;
  const key = makeGroupKey(d, own);
  keys.set(d, key ?? null);
  return key;
}

function makeGroupKey(d: Diagnostic, own: InstancePlace): string | undefined {
  if (d.message.includes(SUBJECT) || d.hint?.includes(SUBJECT) === true) return undefined;
  const name = own.instance.address;
  return JSON.stringify([
    own.instance.template,
    d.severity,
    d.code,
    place(d.range),
    withoutInstance(d.message, name),
    d.hint === undefined ? null : withoutInstance(d.hint, name),
    (d.related ?? []).filter((r) => r !== own).map((r) => [withoutInstance(r.message, name), place(r.range)]),
    d.fixes ?? null,
  ]);
}

interface Group {
  readonly members: { readonly finding: Diagnostic; readonly own: InstancePlace }[];
}

/** The findings of one group as one (see the file comment). */
function merged(group: Group): Diagnostic {
  const [first, ...rest] = group.members;
  if (first === undefined) throw new Error("bug: an empty group of findings");
  const instances = [first.own];
  const seen = new Set([first.own.instance.address]);
  for (const { own } of rest)
    if (!seen.has(own.instance.address)) {
      seen.add(own.instance.address);
      instances.push(own);
    }
  instances.sort(byPlace);
  if (instances.length === 1) return first.finding;
  const { finding, own } = first;
  const subject = `template \`${own.instance.template}\` (${instances.length} instances)`;
  const put = (text: string) => withoutInstance(text, own.instance.address).split(SUBJECT).join(subject);
  const others = (finding.related ?? []).filter((r) => r !== own);
  return {
    ...finding,
    message: put(finding.message),
    ...(finding.hint === undefined ? {} : { hint: put(finding.hint) }),
    related: [...instances, ...others.map((r) => ({ ...r, message: put(r.message) }))],
  };
}

/**
 * A finding as reported, with the findings it stands for: itself, or the findings at one template
 * value for several instances (`finding` is then their merge, a new object).
 */
export interface FindingGroup {
  readonly finding: Diagnostic;
  readonly members: readonly Diagnostic[];
}

/** Instance places in the order they are written. */
function byPlace(a: InstancePlace, b: InstancePlace): number {
  const fa = a.range.file;
  const fb = b.range.file;
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.range.start.offset - b.range.start.offset;
}

/** The first written instance of a group. */
function firstPlace(group: Group): InstancePlace {
  let first = (group.members[0] as Group["members"][number]).own;
  for (const { own } of group.members) if (byPlace(own, first) < 0) first = own;
  return first;
}

/**
 * `out` with the groups at each place and code in the order of their first instance (each group
 * keeps the slots the groups there took), so the order the findings came in does not show.
 */
function orderGroups(out: (Diagnostic | Group)[]): void {
  const slots = new Map<string, number[]>();
  out.forEach((item, index) => {
    if (!("members" in item)) return;
    const d = (item.members[0] as Group["members"][number]).finding;
    const key = JSON.stringify([place(d.range), d.code]);
    const list = slots.get(key);
    if (list === undefined) slots.set(key, [index]);
    else list.push(index);
  });
  for (const indexes of slots.values()) {
    if (indexes.length < 2) continue;
    const groups = indexes.map((i) => out[i] as Group).sort((a, b) => byPlace(firstPlace(a), firstPlace(b)));
    indexes.forEach((slot, k) => {
      out[slot] = groups[k] as Group;
    });
  }
}

/** The findings of `diagnostics` grouped (file comment): each in exactly one group's `members`. */
export function instanceGroups(diagnostics: readonly Diagnostic[]): FindingGroup[] {
  const groups = new Map<string, Group>();
  const out: (Diagnostic | Group)[] = [];
  for (const d of diagnostics) {
    const marked = instancePlaces(d);
    const own = marked.length === 1 ? marked[0] : undefined;
    const key = own === undefined ? undefined : groupKey(d, own);
    if (own === undefined || key === undefined) {
      out.push(d);
      continue;
    }
    const group = groups.get(key);
    if (group !== undefined) group.members.push({ finding: d, own });
    else {
      const fresh: Group = { members: [{ finding: d, own }] };
      groups.set(key, fresh);
      out.push(fresh);
    }
  }
  orderGroups(out);
  return out.map((item) =>
    "members" in item
      ? { finding: merged(item), members: item.members.map((m) => m.finding) }
      : { finding: item, members: [item] },
  );
}

/** `diagnostics` with the findings at one template value for several instances as one (file comment). */
export function groupInstanceFindings(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return instanceGroups(diagnostics).map((g) => g.finding);
}
