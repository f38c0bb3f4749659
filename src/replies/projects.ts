/**
 * The projects of the loaded files that have reply rules, as the worker and the plan use them, and
 * every project's sending numbers (for placing an event by the number it was sent to). Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import { replyNumbers } from "../campaign/replies-spec.js";
import type { ReplyProject } from "./port.js";

export function replyProjects(projects: readonly ProjectSpec[]): ReplyProject[] {
  return projects.flatMap((p) =>
    p.replies === undefined
      ? []
      : [
          {
            address: p.address,
            id: p.id,
            file: p.file,
            organization: p.organization ?? null,
            replies: p.replies,
            numbers: replyNumbers(p),
          },
        ],
  );
}

/** A project of the files (reply rules or not) and its sending numbers as written in E.164. */
export interface NumberSender {
  readonly id: string;
  readonly numbers: readonly string[];
}

/**
 * Every project of the files with its E.164 numbers, with reply rules or not: a number that one of
 * them without rules sends from too does not place an event in the one with rules.
 */
export function numberSenders(projects: readonly ProjectSpec[]): NumberSender[] {
  return projects.map((p) => ({ id: p.id, numbers: replyNumbers(p) }));
}
