/**
 * The one read a forecast adds to a plan: what live projects already sending have sent.
 */
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { LiveState } from "../src/plan/live.js";
import { statusRange } from "../src/status/range.js";
import { listRows } from "../src/status/read-live.js";
import type { Session } from "./session.js";

/**
 * The messages sent so far by the live projects that are sending (status `active`), for the
 * forecast: one bulk statistics listing (newest window first, stopping once every one is listed).
 * Nothing to read without such a project; a failed read is a warning, and they count as none sent.
 */
export async function readSent(
  session: Session,
  projects: LiveState["projects"],
  now: Date,
): Promise<{ readonly sent: ReadonlyMap<string, number>; readonly diagnostics: readonly Diagnostic[] }> {
  const active = new Set(
    [...projects.values()].flatMap((r) =>
      r.kind === "found" && r.value.status === "active" ? [r.value.project_id] : [],
    ),
  );
  const range = statusRange(now, undefined);
  if (active.size === 0 || !range.ok) return { sent: new Map(), diagnostics: [] };
  const listed = await listRows(session.client, range.range, (row) => active.has(row.id), active);
  if (!listed.ok)
    return {
      sent: new Map(),
      diagnostics: [
        {
          severity: "warning",
          code: "forecast.sent-unknown",
          message: `the statistics of the ${active.size} sending project(s) could not be read (${listed.error.message}): the forecast takes them to have sent nothing yet`,
          hint: "plan again; until then the forecast may put sending projects' finish and the brand's cap later than they are",
        },
      ],
    };
  return { sent: new Map([...listed.rows].map(([id, row]) => [id, row.messages_sent])), diagnostics: [] };
}
