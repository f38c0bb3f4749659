/**
 * Project transitions the simulation makes: `scheduled` -> `active` at `scheduled_at` (the audience
 * is compiled and `total_recipients` set at that moment, sending starts at once), and the
 * dashboard's resume of a `paused` project (it continues where it stopped; a project that never went
 * active goes back to `scheduled`, or straight to `active` when its time has passed).
 */
import type { ProjectRecord } from "../state/world.js";
import type { WorkItem } from "./agenda.js";
import { compileAudience } from "./audience.js";
import { iso, type StepContext } from "./step.js";

export function activate(ctx: StepContext, projectId: string): WorkItem[] {
  const p = ctx.world.projects[projectId];
  if (p === undefined || p.status !== "scheduled" || p.deleted === true || p.scheduled_at === null) return [];
  if (Date.parse(p.scheduled_at) > ctx.nowMs) return [];
  const recipients = compileAudience(ctx.world, p);
  ctx.world.sendPlans[projectId] = {
    project_id: projectId,
    compiled_at: iso(ctx.nowMs),
    recipients,
    next_index: 0,
    next_batch_at: iso(ctx.nowMs),
  };
  p.total_recipients = recipients.length;
  p.status = "active";
  p.pause_reason = null;
  ctx.dirty.add(p);
  return [{ kind: "batch", at: ctx.nowMs, projectId }];
}

/** Why a resume was refused, or the work it starts. */
export type ResumeOutcome =
  | { readonly ok: true; readonly work: WorkItem[] }
  | { readonly ok: false; readonly message: string };

export function resume(ctx: StepContext, p: ProjectRecord): ResumeOutcome {
  if (p.status !== "paused")
    return { ok: false, message: `Only a paused project can be resumed; it is ${p.status}` };
  if (p.deleted === true) return { ok: false, message: "The project is deleted" };
  ctx.dirty.add(p);
  p.pause_reason = null;
  const plan = ctx.world.sendPlans[p.project_id];
  if (plan === undefined) {
    p.status = "scheduled";
    if (p.scheduled_at === null) p.scheduled_at = iso(ctx.nowMs);
    const at = Math.max(ctx.nowMs, Date.parse(p.scheduled_at));
    return { ok: true, work: [{ kind: "activate", at, projectId: p.project_id }] };
  }
  p.status = "active";
  plan.next_batch_at = iso(ctx.nowMs);
  return { ok: true, work: [{ kind: "batch", at: ctx.nowMs, projectId: p.project_id }] };
}
