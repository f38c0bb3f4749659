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

/** The values a CrossProject and its plain data both carry. */
type CrossValues = Pick<CrossProjectData, "address" | "id" | "state" | "schedule" | "after">;

function crossValues(project: CrossValues): CrossValues {
  const { address, id, state, schedule, after } = project;
  // Two literals rather than a conditional spread (`...(schedule && { schedule })`), which V8 runs
  // on its slow path: this runs twice for every project of a `validate` run.
  return schedule === undefined ? { address, id, state, after } : { address, id, state, schedule, after };
}

export function toCrossData(project: ProjectSpec): CrossProjectData {
  const span = project.origin === undefined ? undefined : originSpan(project);
  return {
    ...crossValues(project),
    ...(project.origin === undefined
      ? {}
      : {
          origin: {
            value: project.origin,
            ...(project.organization === undefined ? {} : { organization: project.organization }),
            ...(span === undefined ? {} : { span }),
          },
        }),
    ranges: {
      key: project.range,
      id: project.locate(["id"]),
      scheduleAt: project.locate(["schedule", "at"]),
      after: project.after.map((_, index) => project.locate(["after", index])),
    },
  };
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
  if (data.origin === undefined) return { ...crossValues(data), locate };
  const { value, organization, span } = data.origin;
  const project: CrossProject = {
    ...crossValues(data),
    locate,
    origin: value,
    ...(organization === undefined ? {} : { organization }),
  };
  if (span !== undefined) rememberOrigin(project, span);
  return project;
}
