/**
 * The world of the status tests: the example fixture (its clock starts at the fixed instant
 * 2026-12-01T15:00:00Z) plus generated projects whose counters are fixture statistics, spread so
 * that one status needs more than one stats page (over 1,000 rows in the newest window) and every
 * window (projects last updated 35 to 55 and 65 to 85 days back), a few too old for any window,
 * projects of the sub-organization, and copies of GOTV Reminder that really send when scheduled.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";
import { CHILD_ORG, exampleFixture, GOTV_FOLLOWUP, GOTV_REMINDER, ORG } from "../sandbox/helpers.js";

/** The example fixture's clock start: the instant every status test lives at. */
export const START = new Date("2026-12-01T15:00:00Z");
const DAY = 86_400_000;

export const RECENT = 1_100;
export const MIDDLE = 60;
export const OLD = 40;
export const ANCIENT = 5;
export const SENDERS = 3;

export type Age = "recent" | "middle" | "old" | "ancient" | "sender";

export interface Generated {
  readonly id: string;
  readonly age: Age;
  readonly organizationId: string;
  readonly name: string;
}

export interface StatusWorld {
  readonly fixture: Fixture;
  readonly generated: readonly Generated[];
  /** The projects the tests schedule (and the simulation sends). */
  readonly sending: readonly string[];
}

const at = (daysAgo: number, minute = 0): string =>
  new Date(START.getTime() - daysAgo * DAY + minute * 60_000).toISOString();

/** Names a CSV or a Markdown table must carry through intact (and a spreadsheet must not run). */
export const AWKWARD_NAMES: Readonly<Record<number, string>> = {
  7: 'Town hall, "Q&A" night',
  8: '=HYPERLINK("http://example.test")',
  9: "Line one\nline two | @everyone #12",
};

export function statusWorld(): StatusWorld {
  const fixture = exampleFixture();
  const template = (fixture.projects ?? []).find((p) => p.project_id === GOTV_REMINDER) as FixtureProject;
  const generated: Generated[] = [];
  const records: FixtureProject[] = [];
  const ages: readonly [Age, number][] = [
    ["recent", RECENT],
    ["middle", MIDDLE],
    ["old", OLD],
    ["ancient", ANCIENT],
    ["sender", SENDERS],
  ];
  let n = 0;
  for (const [age, count] of ages)
    for (let i = 0; i < count; i++) {
      n++;
      const id = `9c000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      if (age === "sender") {
        const name = `GOTV copy ${i + 1}`;
        generated.push({ id, age, organizationId: ORG, name });
        records.push({ ...template, project_id: id, name, created_at: at(50), updated_at: at(50, 5) });
        continue;
      }
      const organizationId = n % 3 === 0 ? CHILD_ORG : ORG;
      const name = AWKWARD_NAMES[n] ?? `Generated ${age} ${i + 1}`;
      const updatedDaysAgo =
        age === "recent"
          ? n % 29
          : age === "middle"
            ? 35 + (n % 20)
            : age === "old"
              ? 65 + (n % 20)
              : 100 + (n % 30);
      const sent = (n * 7) % 200;
      const failed = sent % 9;
      const delivered = sent - failed - (n % 2 === 1 && sent > failed ? 1 : 0);
      const optedOut = delivered % 4;
      const clicks = n % 6;
      const costE4 = sent * 100 + (n % 13);
      generated.push({ id, age, organizationId, name });
      records.push({
        project_id: id,
        organization_id: organizationId,
        name,
        brand_id: template.brand_id ?? "",
        campaign_id: template.campaign_id ?? "",
        status: sent > 0 ? "completed" : "draft",
        total_recipients: sent + (n % 5),
        estimated_cost_cents: sent + (n % 5) + (n % 4),
        created_at: at(updatedDaysAgo + 2 + (n % 3)),
        updated_at: at(updatedDaysAgo, n % 60),
        ...(sent > 0 ? { completed_at: at(updatedDaysAgo, n % 60) } : {}),
        stats: {
          messages_sent: sent,
          messages_delivered: delivered,
          messages_failed: failed,
          messages_opted_out: optedOut,
          replies_received: optedOut + (n % 3),
          total_url_clicks: clicks,
          unique_url_clicks: clicks > 0 ? clicks - 1 : 0,
          actual_cost: `${Math.floor(costE4 / 10_000)}.${String(costE4 % 10_000).padStart(4, "0")}`,
        },
      });
    }
  fixture.projects = [...(fixture.projects ?? []), ...records];
  const senders = generated.filter((g) => g.age === "sender").map((g) => g.id);
  return { fixture, generated, sending: [GOTV_REMINDER, GOTV_FOLLOWUP, ...senders] };
}

/** A temporary working directory holding `files` (name -> campaign file content as an object). */
export function workDir(files: Readonly<Record<string, unknown>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-status-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), stringify(content));
  return dir;
}

/** A campaign file describing `projects` (address -> id) by id only (status needs nothing more). */
export function campaignFile(projects: Readonly<Record<string, string>>): unknown {
  return {
    version: 1,
    organization: "Riverside Democrats",
    projects: Object.fromEntries(Object.entries(projects).map(([address, id]) => [address, { id }])),
  };
}
