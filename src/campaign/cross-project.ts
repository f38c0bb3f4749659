/**
 * What the checks across projects and files read of a project (addresses, ids, `after`, send
 * times), and its plain-data form: a file assembled on a worker thread sends this back instead of
 * the full ProjectSpec, whose `locate` functions cannot cross threads. Pure.
 */
import type { SourceRange } from "../diagnostics/diagnostic.js";
import type { ProjectSpec, SpecPath } from "./model.js";
import { originSpan, rememberOrigin } from "./template-origin.js";
import type { Span } from "./yaml-path.js";

/** The part of a ProjectSpec the cross-project checks use. `ProjectSpec` is one. */
export type CrossProject = Pick<
  ProjectSpec,
  "address" | "id" | "state" | "schedule" | "after" | "locate" | "origin" | "organization"
>;

/** A CrossProject as plain data: the ranges the cross checks point at, located in advance. */
export interface CrossProjectData {
  readonly address: string;
  readonly id: string;
  readonly state: ProjectSpec["state"];
  readonly schedule?: ProjectSpec["schedule"];
  readonly after: readonly string[];
  /** Set for a project expanded from a template instance (with where the instance is written). */
  readonly origin?: {
    readonly value: NonNullable<ProjectSpec["origin"]>;
    readonly organization?: string;
    readonly span?: Span;
  };
  readonly ranges: {
    readonly key: SourceRange;
    readonly id: SourceRange;
    readonly scheduleAt: SourceRange;
    readonly after: readonly SourceRange[];
  };
}

/**
 * `values` with `more`, as one literal: the optional `schedule` and `origin` are left out when
 * absent. Literals rather than spreads (`{ ...values, ...more }`), which V8 runs on its slow path:
 * this runs twice for every project of a `validate` run.
 */
function withValues<M extends object>(
  values: Pick<CrossProjectData, "address" | "id" | "state" | "schedule" | "after">,
  more: M,
) {
  const { address, id, state, schedule, after } = values;
  return schedule === undefined
    ? Object.assign({ address, id, state, after }, more)
    : Object.assign({ address, id, state, schedule, after }, more);
}

export function toCrossData(project: ProjectSpec): CrossProjectData {
  const ranges = {
    key: project.range,
    id: project.locate(["id"]),
    scheduleAt: project.locate(["schedule", "at"]),
    after: project.after.map((_, index) => project.locate(["after", index])),
  };
  if (project.origin === undefined) return withValues(project, { ranges });
  const span = originSpan(project);
  const origin: NonNullable<CrossProjectData["origin"]> = { value: project.origin };
  if (project.organization !== undefined) Object.assign(origin, { organization: project.organization });
  if (span !== undefined) Object.assign(origin, { span });
  return withValues(project, { origin, ranges });
}

/** Back to a CrossProject; `locate` answers the paths located in advance, else the project's key. */
export function fromCrossData(data: CrossProjectData): CrossProject {
  const locate = (path: SpecPath): SourceRange => {
    const [top, next] = path;
    if (top === "id" && path.length === 1) return data.ranges.id;
    if (top === "schedule" && next === "at" && path.length === 2) return data.ranges.scheduleAt;
    if (top === "after" && typeof next === "number" && path.length === 2)
      return data.ranges.after[next] ?? data.ranges.key;
    return data.ranges.key;
  };
  if (data.origin === undefined) return withValues(data, { locate });
  const { value, organization, span } = data.origin;
  const project: CrossProject = withValues(
    data,
    organization === undefined ? { locate, origin: value } : { locate, origin: value, organization },
  );
  if (span !== undefined) rememberOrigin(project, span);
  return project;
}
