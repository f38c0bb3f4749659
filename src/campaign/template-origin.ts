/**
 * The one mechanism that makes every finding on a project expanded from a template point at both
 * places: its `range` stays where the value was written, and `related` gains the other place: the
 * instance's key when the value was written in the template (or the file's defaults), the template's
 * key when it was written in the instance. Applied where project findings are produced (the loader's
 * checks, the lint, a pipeline's ProjectCheck); rules themselves know nothing of templates. The
 * instance's place is marked (`RelatedInformation.instance`), so that where findings are gathered,
 * one finding at a template's value for many instances is reported once (template-findings.ts). Pure.
 */
import type { Diagnostic, RelatedInformation } from "../diagnostics/diagnostic.js";
import type { ProjectSpec } from "./model.js";
import type { Span } from "./yaml-path.js";

/**
 * What the mechanism reads of a project: a ProjectSpec, or the plain data the checks across files
 * carry from a worker thread (`cross-project.ts`, which remembers its span again).
 */
export type OriginCarrier = Pick<ProjectSpec, "origin" | "organization">;

/** Where each expanded project's instance is written (its value's offsets in its file). */
const instanceSpans = new WeakMap<OriginCarrier, Span>();

/** Records where `project`'s instance is written (template-expand.ts, once per project). */
export function rememberOrigin(project: OriginCarrier, instanceSpan: Span): void {
  instanceSpans.set(project, instanceSpan);
}

/** Where `project`'s instance is written, when it was expanded from one. */
export function originSpan(project: OriginCarrier): Span | undefined {
  return instanceSpans.get(project);
}

/** The place a finding on `project` at `diagnostic.range` does not show, or undefined. */
function otherPlace(project: OriginCarrier, diagnostic: Diagnostic): RelatedInformation | undefined {
  const origin = project.origin;
  if (origin === undefined) return undefined;
  const range = diagnostic.range;
  const span = instanceSpans.get(project);
  const offset = range?.start.offset ?? -1;
  const inInstance =
    range !== undefined &&
    range.file === origin.instanceRange.file &&
    ((span !== undefined && offset >= span[0] && offset <= span[1]) ||
      offset === origin.instanceRange.start.offset);
  return inInstance
    ? {
        message: `from template \`${origin.template}\` (language ${origin.language})`,
        range: origin.templateRange,
      }
    : {
        message: `for instance \`${origin.instance}\` (${project.organization ?? "its organization"}, ${origin.language})`,
        range: origin.instanceRange,
        instance: { address: origin.instance, template: origin.template },
      };
}

/** `diagnostics` about `project`, each with the other place of its origin in `related` (see above). */
export function relateToOrigin(project: OriginCarrier, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (project.origin === undefined) return [...diagnostics];
  return diagnostics.map((diagnostic) => {
    const other = otherPlace(project, diagnostic);
    if (other === undefined) return diagnostic;
    const related = diagnostic.related ?? [];
    const already = related.some(
      (r) => r.range.file === other.range.file && r.range.start.offset === other.range.start.offset,
    );
    return already ? diagnostic : { ...diagnostic, related: [other, ...related] };
  });
}
