/**
 * Hand-built plans for the report tests. `fullPlan()` holds every kind of entry a report can show:
 * a planned test; a test + deferred schedule chain; a planned schedule (whose UTC date differs from
 * the local one); a planned pause; a schedule blocked by drift (message, with a word diff, and
 * contact lists); a test blocked by a precondition (media not ready, with a source range); a
 * project that could not be read; a survey note; an MMS and a UCS-2 estimate; two projects with
 * nothing to do (adjacent one-liners); a plan-level warning; targets, excludes and request counts;
 * audiences by name (one list the key cannot see), schedules from the file and from the live
 * project, sends of two organizations and of an unread project, and their totals; guards (both
 * rates, one rate) on two sending projects and none on the others.
 * User text carries Markdown/HTML specials and an @-mention to exercise escaping.
 */
import { createHash } from "node:crypto";
import type { Diagnostic, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { NO_ITEMS } from "../../src/plan/summary.js";
import { totalSends } from "../../src/plan/totals.js";
import type {
  Action,
  NamedRecord,
  Plan,
  PlanAudience,
  PlanSchedule,
  ProjectPlan,
} from "../../src/plan/types.js";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A well-formed idempotency key, deterministic per seed. */
export function key(seed: string): string {
  return `cc1-${createHash("sha256").update(seed).digest("base64url")}`;
}

export const FLYER_YAML = `version: 1
projects:
  flyer-blast:
    id: 9a000000-0000-4000-8000-000000000006
    message: "Rally Saturday at noon, see the flyer!"
    media: [rally-flyer.png]
    state: tested
`;

/** File texts by name, for diagnostics with a source excerpt. */
export const SOURCES: ReadonlyMap<string, string> = new Map([["campaigns/flyer.yaml", FLYER_YAML]]);

function range(file: string, line: number, column: number, length: number, offset: number): SourceRange {
  return {
    file,
    start: { line, column, offset },
    end: { line, column: column + length, offset: offset + length },
  };
}

const UPDATED = "2026-11-19T16:04:05Z";

export const RIVERSIDE: NamedRecord = {
  id: "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a01",
  name: "Riverside Democrats",
};
export const YOUNG_DEMOCRATS: NamedRecord = {
  id: "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02",
  name: "Riverside Young Democrats",
};
export const WARD_3: NamedRecord = {
  id: "e1000000-0000-4000-8000-000000000001",
  name: "Ward 3 Likely Voters",
};
export const VOLUNTEER_PROSPECTS: NamedRecord = {
  id: "e1000000-0000-4000-8000-000000000002",
  name: "Volunteer Prospects | *core* <team> @field-team",
};
export const DO_NOT_TEXT: NamedRecord = { id: "e1000000-0000-4000-8000-000000000003", name: "Do Not Text" };
/** A list the key cannot see: no name. */
const HIDDEN_LIST: NamedRecord = { id: "e1000000-0000-4000-8000-0000000000ee", name: null };

const AUDIENCE: PlanAudience = {
  organization: RIVERSIDE,
  contact_lists: [WARD_3],
  suppression_lists: [DO_NOT_TEXT],
};

function fileSchedule(at: string, timezone: string, local: string, utc: string): PlanSchedule {
  return { source: "file", at, timezone, local, utc };
}

function project(
  p: Partial<ProjectPlan> & Pick<ProjectPlan, "address" | "project_id" | "desired">,
): ProjectPlan {
  return {
    file: "campaigns/gotv.yaml",
    name: null,
    live: { status: "draft", updated_at: UPDATED },
    drift: [],
    actions: [],
    estimate: null,
    audience: AUDIENCE,
    schedule: null,
    sends: false,
    guard: null,
    diagnostics: [],
    notes: [],
    ...p,
  };
}

function testAction(address: string, projectId: string, status: "planned" | "blocked"): Action {
  return {
    id: `${address}.test`,
    address,
    project_id: projectId,
    kind: "test",
    status,
    request: {
      method: "POST",
      path: `/projects/${projectId}/test`,
      body: {
        test_contacts: [
          { phone: "+15035550188" },
          {
            phone: "+15035550199",
            merge_values: { first_name: "Dana", polling_place: "Lincoln Elementary" },
          },
        ],
      },
      idempotency_key: key(`${address}.test`),
    },
    depends_on: [],
    before: "draft",
    after: "awaiting_test",
    reason: "the project is in draft and must be test-sent before it can leave draft",
  };
}

const DRIFT_FIX =
  "edit the file to match the live project, or fix the project in the dashboard (the API cannot edit projects)";

const gotvReminder = project({
  address: "gotv-reminder",
  project_id: "9a000000-0000-4000-8000-000000000001",
  name: "GOTV reminder",
  desired: "scheduled",
  actions: [
    testAction("gotv-reminder", "9a000000-0000-4000-8000-000000000001", "planned"),
    {
      id: "gotv-reminder.schedule",
      address: "gotv-reminder",
      project_id: "9a000000-0000-4000-8000-000000000001",
      kind: "schedule",
      status: "deferred",
      request: {
        method: "POST",
        path: "/projects/9a000000-0000-4000-8000-000000000001/schedule",
        body: {
          scheduled_at: "2026-11-03T09:00:00-06:00",
          scheduled_timezone: "America/Chicago",
          daily_cap_bypass: false,
        },
        idempotency_key: null,
      },
      depends_on: ["gotv-reminder.test"],
      before: "ready",
      after: "scheduled",
      reason: "the file wants the project scheduled; it can be scheduled once it is ready",
      waits_for:
        "the test send to be approved in the dashboard; a later apply (or apply --wait-for-approval) schedules it",
    },
  ],
  estimate: { recipients: 12345, segments: 2, encoding: "GSM-7", estimated_cost_cents: 74070 },
  schedule: fileSchedule(
    "2026-11-03T09:00:00-06:00",
    "America/Chicago",
    "2026-11-03T09:00:00-06:00",
    "2026-11-03T15:00:00Z",
  ),
  sends: true,
  guard: { max_failure_rate: 0.05, max_opt_out_rate: 0.02, min_sample: 200 },
});

const volunteers = project({
  address: "volunteer-recruitment",
  file: "campaigns/volunteers.yaml",
  project_id: "9a000000-0000-4000-8000-000000000003",
  name: "Volunteers | *MMS* <flyer> & @field-team #12",
  desired: "tested",
  actions: [testAction("volunteer-recruitment", "9a000000-0000-4000-8000-000000000003", "planned")],
  estimate: { recipients: 25, segments: null, encoding: "MMS", estimated_cost_cents: 500 },
  audience: { organization: RIVERSIDE, contact_lists: [VOLUNTEER_PROSPECTS], suppression_lists: [] },
  diagnostics: [
    {
      severity: "info",
      code: "plan.tracking-domain-unchecked",
      message:
        'volunteer-recruitment: tracking domain "go.riverside.vote" is a name, which cannot be checked: the API has no tracking-domain read',
      range: range("campaigns/volunteers.yaml", 14, 15, 17, 402),
      hint: "write the domain's id (the live project uses d1000000-0000-4000-8000-000000000001) to have it compared",
    },
  ],
});

const weekendCanvass = project({
  address: "weekend-canvass",
  project_id: "9a000000-0000-4000-8000-000000000005",
  name: "Weekend canvass 🚪",
  desired: "scheduled",
  live: { status: "ready", updated_at: UPDATED },
  actions: [
    {
      id: "weekend-canvass.schedule",
      address: "weekend-canvass",
      project_id: "9a000000-0000-4000-8000-000000000005",
      kind: "schedule",
      status: "planned",
      request: {
        method: "POST",
        path: "/projects/9a000000-0000-4000-8000-000000000005/schedule",
        body: {
          scheduled_at: "2026-10-31T18:00:00-07:00",
          scheduled_timezone: "America/Los_Angeles",
          daily_cap_bypass: true,
        },
        idempotency_key: key("weekend-canvass.schedule"),
      },
      depends_on: [],
      before: "ready",
      after: "scheduled",
      reason: "the project is ready and the file wants it scheduled",
    },
  ],
  estimate: { recipients: 800, segments: 3, encoding: "UCS-2", estimated_cost_cents: 7200.4 },
  audience: { organization: YOUNG_DEMOCRATS, contact_lists: [WARD_3], suppression_lists: [DO_NOT_TEXT] },
  schedule: fileSchedule(
    "2026-10-31T18:00:00-07:00",
    "America/Los_Angeles",
    "2026-10-31T18:00:00-07:00",
    "2026-11-01T01:00:00Z",
  ),
  sends: true,
  guard: { max_failure_rate: 0.075, max_opt_out_rate: null, min_sample: 100 },
});

const earlyVote = project({
  address: "early-vote-push",
  file: "campaigns/early-vote.yaml",
  project_id: "9a000000-0000-4000-8000-000000000004",
  name: "Early vote push",
  desired: "paused",
  live: { status: "scheduled", updated_at: UPDATED },
  actions: [
    {
      id: "early-vote-push.pause",
      address: "early-vote-push",
      project_id: "9a000000-0000-4000-8000-000000000004",
      kind: "pause",
      status: "planned",
      request: {
        method: "POST",
        path: "/projects/9a000000-0000-4000-8000-000000000004/pause",
        body: { reason: "polling place change" },
        idempotency_key: key("early-vote-push.pause"),
      },
      depends_on: [],
      before: "scheduled",
      after: "paused",
      reason: "the project is scheduled and the file wants it paused",
    },
  ],
  schedule: {
    source: "live",
    at: "2026-11-25T16:00:00.000Z",
    timezone: "America/Chicago",
    local: "2026-11-25T10:00:00-06:00",
    utc: "2026-11-25T16:00:00Z",
  },
});

const RALLY_LIVE =
  "Hi {{first_name}}, join us at the rally Saturday at 11am in Oak Park. Reply STOP to opt out";
const RALLY_FILE =
  "Hi {{first_name|friend}}, join us at the rally Saturday at noon in Oak Park!\nBring a friend. Reply STOP to opt out";

const driftDiagnostic = (message: string, line: number, offset: number): Diagnostic => ({
  severity: "error",
  code: "plan.drift",
  message,
  range: range("campaigns/rally.yaml", line, 5, 7, offset),
  hint: `${DRIFT_FIX}; sending (test, schedule) is blocked until they agree, pausing is not`,
});

const rally = project({
  address: "rally-invite",
  file: "campaigns/rally.yaml",
  project_id: "9a000000-0000-4000-8000-000000000007",
  name: "Rally invite",
  desired: "scheduled",
  live: { status: "ready", updated_at: UPDATED },
  drift: [
    {
      field: "message",
      before: RALLY_LIVE,
      after: RALLY_FILE,
      before_text: RALLY_LIVE,
      after_text: RALLY_FILE,
      fix: DRIFT_FIX,
    },
    {
      field: "contact_lists",
      before: ["e1000000-0000-4000-8000-000000000001", "e1000000-0000-4000-8000-000000000002"],
      after: ["e1000000-0000-4000-8000-000000000001"],
      before_text:
        "Ward 3 Likely Voters (e1000000-0000-4000-8000-000000000001), Volunteer Prospects (e1000000-0000-4000-8000-000000000002)",
      after_text: "Ward 3 Likely Voters (e1000000-0000-4000-8000-000000000001)",
      fix: DRIFT_FIX,
    },
  ],
  actions: [
    {
      id: "rally-invite.schedule",
      address: "rally-invite",
      project_id: "9a000000-0000-4000-8000-000000000007",
      kind: "schedule",
      status: "blocked",
      request: {
        method: "POST",
        path: "/projects/9a000000-0000-4000-8000-000000000007/schedule",
        body: {
          scheduled_at: "2026-11-07T10:00:00-05:00",
          scheduled_timezone: "America/New_York",
          daily_cap_bypass: false,
        },
        idempotency_key: key("rally-invite.schedule"),
      },
      depends_on: [],
      before: "ready",
      after: "scheduled",
      reason: "the project is ready and the file wants it scheduled",
      block: {
        reason:
          "the live project differs from the file (message, contact_lists): what was reviewed is not what would go out",
        fix: DRIFT_FIX,
        codes: ["plan.drift"],
      },
    },
  ],
  estimate: { recipients: 40, segments: 1, encoding: "GSM-7", estimated_cost_cents: 120 },
  audience: {
    organization: RIVERSIDE,
    contact_lists: [WARD_3, VOLUNTEER_PROSPECTS],
    suppression_lists: [DO_NOT_TEXT, HIDDEN_LIST],
  },
  schedule: fileSchedule(
    "2026-11-07T10:00:00-05:00",
    "America/New_York",
    "2026-11-07T10:00:00-05:00",
    "2026-11-07T15:00:00Z",
  ),
  sends: true,
  diagnostics: [
    driftDiagnostic("rally-invite: the live project's message differs from the file", 6, 120),
    driftDiagnostic(
      "rally-invite: contact lists is Ward 3 Likely Voters, Volunteer Prospects on the live project, the file says Ward 3 Likely Voters",
      8,
      260,
    ),
  ],
});

const flyer = project({
  address: "flyer-blast",
  file: "campaigns/flyer.yaml",
  project_id: "9a000000-0000-4000-8000-000000000006",
  name: "Flyer blast",
  desired: "tested",
  actions: [
    {
      ...testAction("flyer-blast", "9a000000-0000-4000-8000-000000000006", "blocked"),
      block: {
        reason: "attached media rally-flyer.png is processing, not ready",
        fix: "wait until the media is ready in the dashboard (or upload it again), then plan again",
        codes: ["plan.media-not-ready"],
      },
    },
  ],
  estimate: { recipients: 40, segments: null, encoding: "MMS", estimated_cost_cents: 80 },
  diagnostics: [
    {
      severity: "error",
      code: "plan.media-not-ready",
      message: "flyer-blast: media rally-flyer.png (f1000000-0000-4000-8000-000000000001) is processing",
      range: range("campaigns/flyer.yaml", 6, 13, 15, 136),
      hint: "wait until the media is ready, then plan again",
    },
  ],
});

const missing = project({
  address: "old-project",
  project_id: "9a000000-0000-4000-8000-0000000000ff",
  desired: "scheduled",
  live: null,
  audience: null,
  schedule: fileSchedule(
    "2026-11-02T08:00:00-08:00",
    "America/Los_Angeles",
    "2026-11-02T08:00:00-08:00",
    "2026-11-02T16:00:00Z",
  ),
  sends: true,
  diagnostics: [
    {
      severity: "error",
      code: "plan.project-not-found",
      message: "old-project: project 9a000000-0000-4000-8000-0000000000ff reads 404",
      hint: "check the id in the file, or that the key's organization can see the project",
    },
  ],
});

const survey = project({
  address: "issue-survey",
  file: "campaigns/survey.yaml",
  project_id: "9a000000-0000-4000-8000-000000000008",
  name: "Issue survey",
  desired: "draft",
  estimate: { recipients: 40, segments: 1, encoding: "GSM-7", estimated_cost_cents: 120 },
  notes: [
    "survey questions are not compared: the API does not show them; only the intro (message) is checked",
  ],
});

const completed = project({
  address: "primary-thanks",
  project_id: "9a000000-0000-4000-8000-000000000009",
  name: "Primary thank-you",
  desired: "scheduled",
  live: { status: "completed", updated_at: "2026-06-03T02:00:00Z" },
  schedule: {
    source: "live",
    at: "2026-06-02T17:00:00Z",
    timezone: "America/Denver",
    local: "2026-06-02T11:00:00-06:00",
    utc: "2026-06-02T17:00:00Z",
  },
});

const newsletter = project({
  address: "spring-newsletter",
  project_id: "9a000000-0000-4000-8000-00000000000a",
  name: "Spring newsletter",
  desired: "draft",
});

/** The plan with every kind of entry (see the module comment). */
export function fullPlan(): Plan {
  return {
    format_version: 3,
    tool_version: "0.1.0",
    created_at: "2026-11-20T14:00:00Z",
    base_url: "https://api.politicalcomms.com/v1",
    files: [
      { path: "campaigns/early-vote.yaml", sha256: sha256("early-vote"), kind: "campaign" },
      { path: "campaigns/flyer.yaml", sha256: sha256(FLYER_YAML), kind: "campaign" },
      { path: "campaigns/gotv.yaml", sha256: sha256("gotv"), kind: "campaign" },
      { path: "campaigns/rally.yaml", sha256: sha256("rally"), kind: "campaign" },
      { path: "campaigns/survey.yaml", sha256: sha256("survey"), kind: "campaign" },
      { path: "campaigns/volunteers.yaml", sha256: sha256("volunteers"), kind: "campaign" },
    ],
    targets: [],
    excludes: ["old-mailer"],
    policy: {
      files: ["campaignctl.policy.yaml", "campaigns/campaignctl.policy.yaml"],
      rules: {
        daily_cap_bypass: "forbid",
        min_test_contacts: 2,
        send_window: { from: "09:00", to: "20:00" },
        require_opt_out_language: true,
        forbid_at_now: true,
      },
      loosened: [
        {
          rule: "max_estimated_cost_usd",
          from: 500,
          to: null,
          by: "--loosen-policy",
        },
      ],
    },
    projects: [
      gotvReminder,
      volunteers,
      weekendCanvass,
      earlyVote,
      rally,
      flyer,
      missing,
      survey,
      completed,
      newsletter,
    ],
    diagnostics: [
      {
        severity: "warning",
        code: "plan.unknown-address",
        message: "--exclude old-mailer names no project",
        hint: "check the address against the campaign files",
      },
    ],
    requests: {
      total: 16,
      by_endpoint: {
        "GET /projects/{id}": 10,
        "GET /organizations": 1,
        "GET /campaigns": 1,
        "GET /contact-lists": 1,
        "GET /phone-numbers": 1,
        "GET /media/{id}": 2,
      },
      naive: 31,
    },
    summary: {
      ...NO_ITEMS,
      projects: 10,
      planned: 4,
      deferred: 1,
      blocked: 2,
      drifted: 1,
      errors: 4,
      warnings: 1,
    },
    totals: {
      overall: {
        projects: 4,
        not_estimated: 1,
        recipients: 13185,
        sms_segments: 27130,
        mms_messages: 0,
        estimated_cost_cents: 81390.4,
      },
      by_organization: [
        {
          organization: RIVERSIDE,
          projects: 2,
          not_estimated: 0,
          recipients: 12385,
          sms_segments: 24730,
          mms_messages: 0,
          estimated_cost_cents: 74190,
        },
        {
          organization: YOUNG_DEMOCRATS,
          projects: 1,
          not_estimated: 0,
          recipients: 800,
          sms_segments: 2400,
          mms_messages: 0,
          estimated_cost_cents: 7200.4,
        },
        {
          organization: null,
          projects: 1,
          not_estimated: 1,
          recipients: 0,
          sms_segments: 0,
          mms_messages: 0,
          estimated_cost_cents: 0,
        },
      ],
    },
  };
}

/** A plan of `count` projects, each with a blocked, drifted schedule: long sections, for the size limit. */
export function hugePlan(count: number): Plan {
  const base = fullPlan();
  const projects: ProjectPlan[] = [];
  for (let i = 0; i < count; i++) {
    const address = `rally-invite-${i}`;
    const schedule = rally.actions[0];
    if (schedule === undefined) throw new Error("fixture: rally has no action");
    projects.push({
      ...rally,
      address,
      project_id: `project-${i}`,
      actions: [
        {
          ...schedule,
          id: `${address}.schedule`,
          address,
          project_id: `project-${i}`,
          request: {
            ...schedule.request,
            path: `/projects/project-${i}/schedule`,
            idempotency_key: key(address),
          },
        },
      ],
    });
  }
  return {
    ...base,
    projects,
    summary: {
      ...NO_ITEMS,
      projects: count,
      planned: 0,
      deferred: 0,
      blocked: count,
      drifted: count,
      errors: 2 * count,
      warnings: 1,
    },
    totals: totalSends(projects),
  };
}
