/**
 * `--target` / `--exclude`: which projects a plan covers. Pure.
 *
 * - With targets, the plan covers the targeted projects plus everything they are ordered `after`,
 *   transitively; without targets, every project.
 * - Excluded projects are then removed. Excluding a project that a covered project is ordered
 *   `after` is an error (the safe choice): the covered project's actions are blocked, since apply
 *   could not tell whether what it waits for has happened.
 * - An address that names no project is an error with did-you-mean.
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
): Selection {
  const byAddress = new Map(projects.map((p) => [p.address, p]));
  const diagnostics: Diagnostic[] = [];
  const entries = projects.map((p) => ({ id: p.address, labels: [p.address], display: p.address }));
  const known = (flag: "--target" | "--exclude") => (address: string) => {
    if (byAddress.has(address)) return true;
    const close = closeLabels(address, entries);
    diagnostics.push({
      severity: "error",
      code: "plan.unknown-address",
      message: `${flag} ${address} names no project of the loaded files`,
      hint:
        close.length > 0
          ? `did you mean ${close.join(" or ")}?`
          : "addresses are the project keys of the files",
    });
    return false;
  };
  const targeted = targets.filter(known("--target"));
  const excluded = new Set(excludes.filter(known("--exclude")));

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
