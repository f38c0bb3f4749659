/** Looking up a project for a key, and stamping changes on it. */
import type { AuthContext } from "../context.js";
import { type ApiResponse, notFound, orgAccessDenied } from "../http/responses.js";
import type { ProjectRecord, World } from "../state/world.js";

/** The project, or 404 PROJECT_NOT_FOUND (missing) / 403 ORG_ACCESS_DENIED (outside the hierarchy). */
export function findProject(world: World, auth: AuthContext, id: string): ProjectRecord | ApiResponse {
  const project = world.projects[id];
  if (project === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
  if (!auth.orgIds.has(project.organization_id)) return orgAccessDenied();
  return project;
}

export function isProject(value: ProjectRecord | ApiResponse): value is ProjectRecord {
  return "project_id" in value;
}

/**
 * Marks a change. Invariant kept: `updated_at` strictly increases on every change (the clock's now,
 * or 1 ms after the previous value when the virtual clock has not moved), so it versions the project.
 */
export function touch(project: ProjectRecord, nowMs: number): void {
  const previous = Date.parse(project.updated_at);
  project.updated_at = new Date(Math.max(nowMs, previous + 1)).toISOString();
}
