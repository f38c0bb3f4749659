/** GET /projects/{id}, POST /projects/{id}/schedule and POST /projects/{id}/pause. */
import { PAUSE_REASON_DEFAULT } from "../../contract/limits.js";
import type { ScheduleRequest } from "../../contract/resources.js";
import type { ApiRoute } from "../context.js";
import { parseDateTime } from "../conversations/find.js";
import { invalid, ok } from "../http/responses.js";
import { projectView } from "../views.js";
import { findProject, isProject, touch } from "./project-access.js";
import { projectTestRoute } from "./project-test.js";

export const projectRoutes: readonly ApiRoute[] = [
  {
    method: "GET",
    template: "/projects/{id}",
    handler: ({ params, auth, sandbox }) => {
      const project = findProject(sandbox.store.world, auth, params.id ?? "");
      return isProject(project) ? ok(projectView(project)) : project;
    },
  },
  projectTestRoute,
  {
    method: "POST",
    template: "/projects/{id}/schedule",
    bodySchema: "schedule",
    handler: ({ params, body, auth, sandbox, idempotencyKey }) => {
      const request = body as ScheduleRequest;
      const { store, clock } = sandbox;
      const project = findProject(store.world, auth, params.id ?? "");
      if (!isProject(project)) return project;
      if (project.status !== "ready")
        return invalid(
          ["status"],
          `Project must be in ready to schedule; it is ${project.status}`,
          "invalid_state",
        );
      // The schema's `date-time` admits forms that are no ISO 8601 date-time with offset (a space
      // for the `T`, `-06`, `-0600`) and a leap second no Date can hold: one strict parse, a 400.
      const atMs = parseDateTime(request.scheduled_at);
      if (atMs === undefined)
        return invalid(
          ["scheduled_at"],
          "scheduled_at must be an ISO 8601 date-time with offset, such as 2026-12-07T10:00:00-06:00",
          "invalid_string",
        );
      const scheduledAt = new Date(atMs).toISOString();
      const bypass = request.daily_cap_bypass ?? false;
      store.mutate((w) => {
        project.status = "scheduled";
        project.scheduled_at = scheduledAt;
        project.scheduled_timezone = request.scheduled_timezone;
        project.daily_cap_bypass = bypass;
        touch(project, clock.nowMs());
        store.recordEffect(w, "schedule", project.project_id, true, idempotencyKey);
      });
      return ok({
        project_id: project.project_id,
        status: "scheduled",
        scheduled_at: scheduledAt,
        scheduled_timezone: request.scheduled_timezone,
        daily_cap_bypass: bypass,
      });
    },
  },
  {
    method: "POST",
    template: "/projects/{id}/pause",
    bodySchema: "pause",
    handler: ({ params, body, auth, sandbox, idempotencyKey }) => {
      const reason = (body as { reason?: string } | undefined)?.reason ?? PAUSE_REASON_DEFAULT;
      const { store, clock } = sandbox;
      const project = findProject(store.world, auth, params.id ?? "");
      if (!isProject(project)) return project;
      const status = project.status;
      switch (status) {
        case "scheduled":
        case "active":
        case "paused":
          break;
        case "draft":
        case "awaiting_test":
        case "ready":
        case "completed":
          return invalid(["status"], `Project cannot be paused while ${status}`, "invalid_state");
      }
      store.mutate((w) => {
        const changed = project.status !== "paused" || project.pause_reason !== reason;
        if (changed) {
          project.status = "paused";
          project.pause_reason = reason;
          touch(project, clock.nowMs());
        }
        store.recordEffect(w, "pause", project.project_id, changed, idempotencyKey);
      });
      return ok({ project_id: project.project_id, status: "paused", pause_reason: reason });
    },
  },
];
