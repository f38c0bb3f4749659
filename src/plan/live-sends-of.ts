/**
 * What the live sends of a brand are, from what was read (pure): the statistics rows of the projects
 * no file describes, and each one's project read. A project still scheduled or sending counts with
 * what its row says it has sent; one that could not be read is left out, named in a warning, and
 * the sends are then incomplete. The reads themselves are cli/gather/forecast-sent.ts's.
 */
import type { Project, ProjectStatsRow } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveRead } from "./live.js";
import type { LiveSend } from "./live-sends.js";

/** The statuses of a project that sends or will: scheduled and active. */
export const SENDING: ReadonlySet<string> = new Set(["scheduled", "active"]);

export function liveSendsOf(
  others: readonly ProjectStatsRow[],
  read: ReadonlyMap<string, LiveRead<Project>>,
): { readonly sends: LiveSend[]; readonly diagnostics: Diagnostic[] } {
  const sends: LiveSend[] = [];
  const unread: string[] = [];
  for (const row of others) {
    const got = read.get(row.id);
    const project: Project | undefined = got?.kind === "found" ? got.value : undefined;
    if (project === undefined || !SENDING.has(project.status)) {
      if (project === undefined) unread.push(`${row.name} (${row.id})`);
      continue;
    }
    sends.push({
      project,
      sent: row.messages_sent,
      brandName: row.brand_name,
      organizationName: row.organization_name,
    });
  }
  if (unread.length === 0) return { sends, diagnostics: [] };
  return {
    sends,
    diagnostics: [
      {
        severity: "warning",
        code: "forecast.sent-unknown",
        message: `${unread.length} live send(s) of the brand could not be read (${unread.join(", ")}): the forecast leaves them out`,
        hint: "plan again; until then the forecast may put the brand's cap later than it is",
      },
    ],
  };
}
