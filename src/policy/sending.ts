/**
 * Whether a project still tests or sends, as every policy rule about sending judges it: the one
 * definition. Its file asks for it (`tested`: the test send; `scheduled`: the send to its lists),
 * and the live project, as read in this run, has not completed: a completed project sends nothing
 * more, whatever its file asks. Offline (validate reads no live state) the file alone decides. Pure.
 */
import type { ProjectSpec, ScheduleSpec } from "../campaign/model.js";

/** Invariants: `toLists` implies `sends`; `schedule` is set only when `toLists`. */
export interface Sending {
  /** It tests or sends (`tested` or `scheduled`) and has not completed. */
  readonly sends: boolean;
  /** It sends to its lists (`scheduled`) and has not completed. */
  readonly toLists: boolean;
  /** The schedule it sends on when `toLists`; else undefined. */
  readonly schedule: ScheduleSpec | undefined;
}

/** `completed`: the live project read in this run has completed (false offline, or not read). */
export function sendingOf(project: ProjectSpec, completed: boolean): Sending {
  const toLists = !completed && project.state === "scheduled";
  return {
    sends: toLists || (!completed && project.state === "tested"),
    toLists,
    schedule: toLists ? project.schedule : undefined,
  };
}
