/** The projects of the loaded files that have reply rules, as the worker and the plan use them. Pure. */
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
