/**
 * The dashboard's side of projects: `GET /_sandbox/projects/{id}` (raw record, counters included),
 * `PATCH /_sandbox/projects/{id}` (edit a live project as a person would; bumps updated_at) and
 * `POST /_sandbox/projects/{id}/approve` (awaiting_test -> ready).
 */
import { PROJECT_STATUSES, SCHEDULE_TIMEZONES } from "../../contract/limits.js";
import type { AdminRoute } from "../context.js";
import { invalid, notFound, ok } from "../http/responses.js";
import { touch } from "../routes/project-access.js";
import type { ProjectRecord } from "../state/world.js";

const ids = { type: "array", items: { type: "string" } };
const nullableString = { type: ["string", "null"] };

const editSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: "string", minLength: 1 },
    status: { enum: [...PROJECT_STATUSES] },
    message_text: { type: "string" },
    phone_number_ids: ids,
    contact_list_ids: ids,
    suppression_list_ids: ids,
    media_ids: ids,
    link_tracking_enabled: { type: "boolean" },
    link_tracking_destination_url: { type: "string" },
    link_tracking_domain_id: { type: "string" },
    link_tracking_param_field: { type: "string" },
    link_tracking_fallback_url: nullableString,
    opt_out_footer_enabled: { type: "boolean" },
    ai_survey_analysis_enabled: { type: "boolean" },
    total_recipients: { type: "integer", minimum: 0 },
    estimated_cost_cents: { type: "integer", minimum: 0 },
    scheduled_at: { oneOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
    scheduled_timezone: { enum: [...SCHEDULE_TIMEZONES, null] },
    daily_cap_bypass: { type: "boolean" },
    pause_reason: nullableString,
    deleted: { type: "boolean" },
  },
};

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
    bodySchema: editSchema,
    handler: ({ params, body, sandbox }) => {
      const { store, clock } = sandbox;
      const p = store.world.projects[params.id ?? ""];
      if (p === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
      const edit = body as Partial<ProjectRecord>;
      store.mutate((w) => {
        Object.assign(p, edit);
        if (edit.scheduled_at) p.scheduled_at = new Date(edit.scheduled_at).toISOString();
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
