/**
 * A test world for apply: the example fixture plus `n` generated projects (drafts to test, readies
 * to schedule, scheduled ones to pause, drafts to test and then schedule), and the campaign file
 * that describes them without drift.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";
import { exampleFixture, GOTV_REMINDER } from "../sandbox/helpers.js";

export type Role = "test" | "schedule" | "pause" | "test-then-schedule";

export interface WorldProject {
  readonly address: string;
  readonly id: string;
  readonly role: Role;
}

export interface World {
  readonly fixture: Fixture;
  readonly dir: string;
  readonly campaignFile: string;
  readonly projects: readonly WorldProject[];
}

export const SCHEDULE_AT = "2026-12-07T10:00:00-06:00";

/** Roles in a fixed rotation so any count covers all kinds. */
export function buildWorld(counts: Partial<Record<Role, number>>): World {
  const fixture = exampleFixture();
  const template = (fixture.projects ?? []).find((p) => p.project_id === GOTV_REMINDER) as FixtureProject;
  const projects: WorldProject[] = [];
  const records: FixtureProject[] = [];
  let n = 0;
  for (const role of ["test", "schedule", "pause", "test-then-schedule"] as const) {
    for (let i = 0; i < (counts[role] ?? 0); i++) {
      n++;
      const id = `9b000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      const address = `${role}-${i + 1}`;
      projects.push({ address, id, role });
      records.push({
        ...template,
        project_id: id,
        name: `Generated ${address}`,
        suppression_list_ids: [],
        status: role === "schedule" ? "ready" : role === "pause" ? "scheduled" : "draft",
        ...(role === "pause"
          ? { scheduled_at: SCHEDULE_AT, scheduled_timezone: "America/Chicago", daily_cap_bypass: false }
          : {}),
        updated_at: `2026-11-25T10:00:${String(n % 60).padStart(2, "0")}.000Z`,
      });
    }
  }
  fixture.projects = [...(fixture.projects ?? []), ...records];
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-apply-"));
  mkdirSync(join(dir, "campaign"));
  const campaignFile = join("campaign", "generated.yaml");
  writeFileSync(join(dir, campaignFile), campaignText(projects, template.message_text));
  return { fixture, dir, campaignFile, projects };
}

/**
 * The campaign file's texts made in this worker, by everything they are made from (the projects'
 * addresses, ids and roles, and the template's message): a world of the same counts gets the same
 * text, so a file that builds one world per seed (apply/faults: 24) stringifies it once, not once
 * per world (7 ms each). Strings only: no caller can change what is kept.
 */
const campaignTexts = new Map<string, string>();

function campaignText(projects: readonly WorldProject[], message: string | undefined): string {
  const key = JSON.stringify([projects, message]);
  let text = campaignTexts.get(key);
  if (text === undefined) {
    text = stringify(campaignDocument(projects, message));
    campaignTexts.set(key, text);
  }
  return text;
}

/** The campaign file describing `projects` without drift. */
function campaignDocument(projects: readonly WorldProject[], message: string | undefined): unknown {
  return {
    version: 1,
    organization: "Riverside Democrats",
    merge_defaults: { first_name: "friend" },
    fields: ["polling_place"],
    defaults: {
      channel: "10dlc",
      brand: "Riverside Democrats",
      campaign: "GOTV 2026",
      phone_numbers: ["+15035550101", "+15035550102"],
      contact_lists: ["Ward 3 Likely Voters"],
      message,
      test: {
        contacts: [
          { phone: "+15035550150", merge_values: { first_name: "Maria" } },
          { phone: "+15035550151" },
        ],
      },
    },
    projects: Object.fromEntries(
      projects.map((p) => [
        p.address,
        {
          id: p.id,
          name: `Generated ${p.address}`,
          ...(p.role === "test" ? { state: "tested" } : {}),
          ...(p.role === "schedule" || p.role === "test-then-schedule"
            ? { state: "scheduled", schedule: { at: SCHEDULE_AT, timezone: "America/Chicago" } }
            : {}),
          ...(p.role === "pause" ? { state: "paused", pause: { reason: "hold for review" } } : {}),
        },
      ]),
    ),
  };
}
