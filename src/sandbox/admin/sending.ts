/**
 * The send simulation's `/_sandbox` routes: `GET /messages` (the sent log; optional `project_id`,
 * `status`, `to`), `GET|PATCH /simulation` (the knobs, see `simulation/settings.ts`) and
 * `POST /projects/{id}/resume` (the dashboard's "start again" of a paused project).
 */
import type { AdminRequest, AdminRoute } from "../context.js";
import { type ApiResponse, invalid, notFound, ok, standardError } from "../http/responses.js";
import { runtimeOf, type SimulationRuntime } from "../simulation/runtime.js";
import type { SimulationSettings } from "../simulation/settings.js";

function withRuntime(req: AdminRequest, run: (r: SimulationRuntime) => ApiResponse): ApiResponse {
  const runtime = runtimeOf(req.sandbox);
  return runtime === undefined
    ? standardError(503, "SIMULATION_NOT_RUNNING", "The send simulation is not running")
    : run(runtime);
}

export const sendingRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/messages",
    handler: ({ query, sandbox }) => {
      const project = query.get("project_id");
      const status = query.get("status");
      const to = query.get("to");
      return ok(
        Object.values(sandbox.store.world.messages).filter(
          (m) =>
            (project === null || m.project_id === project) &&
            (status === null || m.status === status) &&
            (to === null || m.to === to),
        ),
      );
    },
  },
  {
    method: "GET",
    template: "/simulation",
    handler: (req) => withRuntime(req, (r) => ok(r.simulation.settings)),
  },
  {
    method: "PATCH",
    template: "/simulation",
    bodySchema: "simulation",
    handler: (req) =>
      withRuntime(req, (r) => {
        const next = { ...r.simulation.settings, ...(req.body as Partial<SimulationSettings>) };
        if (next.reply_delay_max_ms < next.reply_delay_min_ms)
          return invalid(["reply_delay_max_ms"], "reply_delay_max_ms must be >= reply_delay_min_ms");
        r.simulation.settings = next;
        return ok(next);
      }),
  },
  {
    method: "POST",
    template: "/projects/{id}/resume",
    handler: (req) =>
      withRuntime(req, (r) => {
        const id = req.params.id ?? "";
        const outcome = r.simulation.resume(id);
        if (outcome === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
        if (!outcome.ok) return invalid(["status"], outcome.message, "invalid_state");
        const p = req.sandbox.store.world.projects[id];
        return ok({ project_id: id, status: p?.status, updated_at: p?.updated_at });
      }),
  },
];
