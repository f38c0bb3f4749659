/**
 * A project whose read by id failed gets no actions, only a diagnostic at its `id`. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveRead } from "./live.js";

export function unreadableProject(spec: ProjectSpec, read: LiveRead<Project>): Diagnostic | undefined {
  const range = spec.locate(["id"]);
  switch (read.kind) {
    case "found":
      return undefined;
    case "not-found":
      return {
        severity: "error",
        code: "plan.project-not-found",
        message: `${spec.address}: project ${spec.id} does not exist or is not visible to the key`,
        range,
        hint: "projects are created in the dashboard: copy the live project's id into the file, or correct the id",
      };
    case "forbidden":
      return {
        severity: "error",
        code: "plan.project-forbidden",
        message: `${spec.address}: project ${spec.id} is outside the key's organization tree (${read.message})`,
        range,
        hint: "use a key of the organization that owns the project, or of one of its parents",
      };
    case "error":
      return {
        severity: "error",
        code: "plan.project-unreadable",
        message: `${spec.address}: project ${spec.id} could not be read (${read.code}: ${read.message})`,
        range,
        hint: "nothing is planned for it; plan again once the API answers",
      };
  }
}
