/**
 * The world of the experiment tests: the example fixture (its clock starts at 2026-12-01T15:00Z)
 * with a list split in two for the arms (1,600 recipients each) and the rest of it for the holdout
 * (40); GOTV Reminder and GOTV Follow-up become the arms, each with its own wording, and a copy of
 * the reminder, ready, is the holdout, its live text the first arm's. The brand's cap is lifted so
 * both arms send in one day; the simulation draws each arm's reply rate (`project_reply_rates`).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Fixture, FixtureContact, FixtureProject } from "../../src/sandbox/fixture/types.js";
import { exampleFixture, GOTV_FOLLOWUP, GOTV_REMINDER, ORG } from "../sandbox/helpers.js";

export const ARM_A = GOTV_REMINDER;
export const ARM_B = GOTV_FOLLOWUP;
export const HOLDOUT = "9e000000-0000-4000-8000-000000000003";
export const TEXT_A = "Hi {{first_name|friend}}, vote early this week. Reply STOP to opt out";
export const TEXT_B =
  "{{first_name|friend}}, your neighbors are voting early. Will you? Reply STOP to opt out";
export const SPLIT_A = "e9000000-0000-4000-8000-00000000000a";
export const SPLIT_B = "e9000000-0000-4000-8000-00000000000b";
export const THE_REST = "e9000000-0000-4000-8000-00000000000c";
export const SEND_AT = "2026-12-01T15:00:10.000Z";

const phones = (from: number, count: number): FixtureContact[] =>
  Array.from({ length: count }, (_, i) => ({
    phone: `+1202555${String(from + i).padStart(4, "0")}`,
    fields: { first_name: "Sam" },
  }));

export function experimentFixture(perArm = 1600): Fixture {
  const f = exampleFixture();
  for (const brand of f.brands ?? []) brand.daily_cap = 100_000;
  const list = (id: string, name: string, contacts: FixtureContact[]) => ({
    id,
    name,
    organization_id: ORG,
    brand_id: "b1a2c3d4-0000-4000-8000-000000000001",
    created_at: "2026-11-10T18:00:00Z",
    contacts,
  });
  f.contact_lists = [
    ...(f.contact_lists ?? []),
    list(SPLIT_A, "Early vote split A", phones(0, perArm)),
    list(SPLIT_B, "Early vote split B", phones(perArm, perArm)),
    list(THE_REST, "Early vote rest", phones(2 * perArm, 40)),
  ];
  const projects = f.projects ?? [];
  const edit = (id: string, patch: Partial<FixtureProject>) => {
    const p = projects.find((x) => x.project_id === id);
    if (p !== undefined) Object.assign(p, patch);
  };
  edit(ARM_A, { name: "Early vote A", message_text: TEXT_A, contact_list_ids: [SPLIT_A] });
  edit(ARM_B, { name: "Early vote B", message_text: TEXT_B, contact_list_ids: [SPLIT_B] });
  const base = projects.find((x) => x.project_id === ARM_A) as FixtureProject;
  projects.push({
    ...base,
    project_id: HOLDOUT,
    name: "Early vote rest",
    status: "ready",
    message_text: TEXT_A,
    contact_list_ids: [THE_REST],
  });
  return f;
}

/** The campaign file: the arms (scheduled at SEND_AT), the holdout and the experiment. */
export function campaignText(
  options: { readonly holdoutText?: string; readonly brake?: string } = {},
): string {
  const schedule = `{at: "${SEND_AT}", timezone: America/Los_Angeles}`;
  return `version: 1
organization: Riverside Democrats
defaults:
  suppression_lists: [Do Not Text]
  phone_numbers: ["+15035550101", "+15035550102"]
projects:
  early-vote-a:
    id: ${ARM_A}
    message: "${TEXT_A}"
    contact_lists: [Early vote split A]
    state: scheduled
    schedule: ${schedule}
  early-vote-b:
    id: ${ARM_B}
    message: "${TEXT_B}"
    contact_lists: [Early vote split B]
    state: scheduled
    schedule: ${schedule}
  early-vote-rest:
    id: ${HOLDOUT}
    message: "${options.holdoutText ?? TEXT_A}"
    contact_lists: [Early vote rest]
    state: scheduled
    schedule: {at: now, timezone: America/Los_Angeles}
experiments:
  early-vote-wording:
    arms: [early-vote-a, early-vote-b]
    metric: reply_rate
    min_sample: 1500
    holdout: early-vote-rest
${options.brake ?? ""}`;
}

export function campaignDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "experiments-"));
  writeFileSync(join(dir, "campaign.yaml"), text);
  return dir;
}
