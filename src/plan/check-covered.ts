/**
 * What must be valid before a plan reads the API: every file (YAML, schema, addresses, ids,
 * references), and the lint rules of the projects the plan covers. A project left out by
 * `--target`/`--exclude` is not linted, so its lint error (an opt-out missing, a broken tracked
 * link) does not stop a plan of another project; `validate` still reports it. Errors of the files
 * themselves stop every plan: a file that cannot be read whole cannot be trusted in part. Pure.
 */
import type { LintContext } from "../campaign/lint/index.js";
import { lintCampaign } from "../campaign/lint/index.js";
import type { Campaign } from "../campaign/model.js";
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { type Selection, selectProjects } from "./select.js";

export interface CoveredCheck {
  /** The `--target`/`--exclude` selection (its own diagnostics are not in `diagnostics`). */
  readonly selection: Selection;
  /** The campaign narrowed to the projects of `selection.selected` (what the plan reads and judges). */
  readonly covered: Campaign;
  /**
   * The files' problems and the covered projects' lint findings, sorted. Invariant: no lint
   * finding about a project outside `selection.selected`.
   */
  readonly diagnostics: readonly Diagnostic[];
}

export function checkCovered(
  loaded: { readonly campaign: Campaign; readonly diagnostics: readonly Diagnostic[] },
  targets: readonly string[],
  excludes: readonly string[],
  context: LintContext,
): CoveredCheck {
  const selection = selectProjects(
    loaded.campaign.projects,
    targets,
    excludes,
    loaded.campaign.emailLists?.map((l) => l.address),
  );
  const covered: Campaign = {
    ...loaded.campaign,
    projects: loaded.campaign.projects.filter((p) => selection.selected.has(p.address)),
    // A template's variants are judged when the plan covers one of its instances.
    templates: (loaded.campaign.templates ?? []).filter((t) =>
      t.instances.some((i) => selection.selected.has(i.address)),
    ),
  };
  const diagnostics = [...loaded.diagnostics, ...lintCampaign(covered, context)].sort(compareDiagnostics);
  return { selection, covered, diagnostics };
}
