import type { AdminRoute } from "../context.js";
import { parseDateTime } from "../conversations/find.js";
import { invalid, notFound, ok } from "../http/responses.js";
import { touch } from "../routes/project-access.js";
import type { ProjectRecord } from "../state/world.js";

export const adminProjectRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/projects/{id}",
    handler: ({ params, sandbox }) => {
      const p = sandbox.store.world.projects[params.id ?? ""];
      return p ? ok(p) : notFound("PROJECT_NOT_FOUND", "Project");
    },
  },
  {
    method: "PATCH",
    template: "/projects/{id}",
    bodySchema: "projectEdit",
    handler: ({ params, body, sandbox }) => {
      const { store, clock } = sandbox;
      const p = store.world.projects[params.id ?? ""];
      if (p === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
      const edit = body as Partial<ProjectRecord>;
      // Checked before anything changes: a `scheduled_at` no Date holds (`...-06`, a leap second)
      // threw half-way through the edit and left the raw text on the project.
      const atMs = edit.scheduled_at ? parseDateTime(edit.scheduled_at) : null;
      if (atMs === undefined)
        return invalid(
          ["scheduled_at"],
          "scheduled_at must be an ISO 8601 date-time with offset",
          "invalid_string",
        );
      store.mutate((w) => {
        Object.assign(p, edit);
        if (atMs !== null) p.scheduled_at = new Date(atMs).toISOString();
        if (edit.media_ids) {
          p.media_urls = edit.media_ids.map((id) => w.media[id]?.url ?? "");
          p.protocol = edit.media_ids.length > 0 ? "mms" : "sms";
        }
        touch(p, clock.nowMs());
        store.recordEffect(w, "edit", p.project_id, true, null);
      });
      return ok(p);
    },
  },
  {
    method: "POST",
    template: "/projects/{id}/approve",
    handler: ({ params, sandbox }) => {
      const { store, clock } = sandbox;
      const p = store.world.projects[params.id ?? ""];
      if (p === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
      if (p.status !== "awaiting_test")
        return invalid(
          ["status"],
          `Only a project awaiting_test can be approved; it is ${p.status}`,
          "invalid_state",
        );
      store.mutate((w) => {
        p.status = "ready";
        touch(p, clock.nowMs());
        store.recordEffect(w, "approve", p.project_id, true, null);
      });
      return ok({ project_id: p.project_id, status: p.status, updated_at: p.updated_at });
    },
  },
];
