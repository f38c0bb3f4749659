/**
 * `--target` / `--exclude`: which projects a plan covers. Pure.
 *
 * - With targets, the plan covers the targeted projects plus everything they are ordered `after`,
 *   transitively; without targets, every project.
 * - Excluded projects are then removed. Excluding a project that a covered project is ordered
 *   `after` is an error (the safe choice): the covered project's actions are blocked, since apply
 *   could not tell whether what it waits for has happened.
 * - A selector is a project address (an instance address is one), else a template name (every
 *   project expanded from it, `origin.template`), else an organization as the files write it (every
 *   project whose `organization` is that name or id, case aside) (issue 26).
 * - An email list's address (`Campaign.emailLists`) is a known selector that selects no project:
 *   targeting only email lists covers no project (src/plan/email-select.ts narrows the lists).
 * - A selector that names none of these is an error with did-you-mean.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { closeLabels } from "./catalog.js";

export interface Selection {
  /** Addresses the plan covers, in no particular order (the plan keeps the campaign's order). */
  readonly selected: ReadonlySet<string>;
  /** For a covered project: the excluded projects it is ordered `after` (directly). */
  readonly excludedDependencies: ReadonlyMap<string, readonly string[]>;
  readonly diagnostics: readonly Diagnostic[];
}

export function selectProjects(
  projects: readonly ProjectSpec[],
  targets: readonly string[],
  excludes: readonly string[],
  emailLists: readonly string[] = [],
): Selection {
  const index = indexOf(projects);
  const { byAddress, groups } = index;
  const lists = new Set(emailLists);
  const diagnostics: Diagnostic[] = [];
  const entries = () => [
    ...projects.map((p) => ({ id: p.address, labels: [p.address], display: p.address })),
    ...[...groups.keys()].map((name) => ({ id: `group:${name}`, labels: [name], display: name })),
    ...[...lists].map((address) => ({ id: `email:${address}`, labels: [address], display: address })),
  ];
  const known = (flag: "--target" | "--exclude") => (address: string) => {
    const meanings = meaningsOf(index, address);
    if (meanings.length > 1) {
      diagnostics.push({
        severity: "error",
        code: "plan.ambiguous-selector",
        message: `${flag} ${address} names ${meanings.join(" and ")}, which cover different projects`,
        hint: "rename the template or the project so that no name means two things, or select the projects by their addresses",
      });
      return false;
    }
    if (byAddress.has(address) || groupOf(groups, address) !== undefined || lists.has(address)) return true;
    const close = closeLabels(address, entries());
    diagnostics.push({
      severity: "error",
      code: "plan.unknown-address",
      message: `${flag} ${address} names no project or email list of the loaded files`,
      hint:
        close.length > 0
          ? `did you mean ${close.join(" or ")}?`
          : "give a project (or instance) address, a template name, an organization or an email list's address of the files",
    });
    return false;
  };
  const expand = (selector: string): readonly string[] =>
    byAddress.has(selector) ? [selector] : (groupOf(groups, selector) ?? []);
  const targeted = targets.filter(known("--target")).flatMap(expand);
  const excluded = new Set(excludes.filter(known("--exclude")).flatMap(expand));

  const covered = new Set<string>();
  const visit = (address: string): void => {
    const project = byAddress.get(address);
    if (project === undefined || covered.has(address)) return;
    covered.add(address);
    for (const dependency of project.after) visit(dependency);
  };
  if (targets.length === 0) for (const p of projects) covered.add(p.address);
  else for (const address of targeted) visit(address);
  for (const address of excluded) covered.delete(address);

  const excludedDependencies = new Map<string, string[]>();
  for (const address of covered) {
    const project = byAddress.get(address);
    const missing = project?.after.filter((d) => excluded.has(d)) ?? [];
    if (project === undefined || missing.length === 0) continue;
    excludedDependencies.set(address, missing);
    for (const dependency of missing)
      diagnostics.push({
        severity: "error",
        code: "plan.excluded-dependency",
        message: `--exclude ${dependency} removes a project that ${address} is ordered after, so ${address} is blocked`,
        range: project.locate(["after", project.after.indexOf(dependency)]),
        hint: `exclude ${address} too, or do not exclude ${dependency}`,
      });
  }
  return { selected: covered, excludedDependencies, diagnostics };
}

interface SelectorIndex {
  readonly byAddress: ReadonlyMap<string, ProjectSpec>;
  readonly groups: ReadonlyMap<string, readonly string[]>;
  readonly templates: ReadonlyMap<string, readonly string[]>;
  readonly organizations: ReadonlyMap<string, readonly string[]>;
}

/**
 * What `selector` names when it names more than one thing covering different projects (an address
 * and a template of other instances, a template and an organization): the selector is then refused,
 * since `--exclude` taking one meaning would leave the other's projects in. Empty otherwise.
 */
function meaningsOf(index: SelectorIndex, selector: string): string[] {
  const sets: [string, readonly string[]][] = [];
  if (index.byAddress.has(selector)) sets.push([`project ${selector}`, [selector]]);
  const template = index.templates.get(selector);
  if (template !== undefined) sets.push([`template ${selector}`, template]);
  const organization = index.organizations.get(selector.toLowerCase());
  if (organization !== undefined) sets.push([`organization ${selector}`, organization]);
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((x) => b.includes(x));
  const [first] = sets;
  return first !== undefined && sets.some(([, s]) => !same(s, first[1])) ? sets.map(([m]) => m) : [];
}

/**
 * The projects by address and the selector groups, built once per list of projects: apply judges
 * again right before each send (`only` one address), and a list of a thousand instances indexed on
 * every call made apply grow with the square of the instances. The campaign's list is never changed.
 */
const indexes = new WeakMap<readonly ProjectSpec[], SelectorIndex>();

function indexOf(projects: readonly ProjectSpec[]): SelectorIndex {
  let index = indexes.get(projects);
  if (index === undefined) {
    index = { byAddress: new Map(projects.map((p) => [p.address, p])), ...selectorGroups(projects) };
    indexes.set(projects, index);
  }
  return index;
}

/**
 * The names that select several projects: template names first, then organizations as written
 * (keyed in lower case). A name that means two things covering different projects is refused
 * (`plan.ambiguous-selector`, meaningsOf).
 */
function selectorGroups(projects: readonly ProjectSpec[]): Omit<SelectorIndex, "byAddress"> {
  const templates = new Map<string, string[]>();
  const organizations = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, address: string): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [address]);
    else list.push(address);
  };
  for (const p of projects) {
    if (p.origin !== undefined) add(templates, p.origin.template, p.address);
    if (p.organization !== undefined) add(organizations, p.organization.toLowerCase(), p.address);
  }
  const groups = new Map<string, string[]>(templates);
  for (const [name, addresses] of organizations) if (!groups.has(name)) groups.set(name, addresses);
  return { groups, templates, organizations };
}

function groupOf(
  groups: ReadonlyMap<string, readonly string[]>,
  selector: string,
): readonly string[] | undefined {
  return groups.get(selector) ?? groups.get(selector.toLowerCase());
}
