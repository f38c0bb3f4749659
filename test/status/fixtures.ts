/** Pure inputs of the status tests: statistics rows, project details, and reports made from them. */
import type { Project, ProjectStatsRow } from "../../src/contract/resources.js";
import type { LiveRead } from "../../src/plan/live.js";
import { statusRange } from "../../src/status/range.js";
import { buildStatusReport, type StatusReport } from "../../src/status/report.js";

export const NOW = new Date("2026-12-01T15:00:00Z");
export const ORG_A = "00000000-0000-4000-8000-0000000000a1";
export const ORG_B = "00000000-0000-4000-8000-0000000000a2";

export const pid = (n: number): string => `00000000-0000-4000-9000-${String(n).padStart(12, "0")}`;

/** A statistics row of project `n`; counters 0 unless given. */
export function row(n: number, over: Partial<ProjectStatsRow> = {}): ProjectStatsRow {
  return {
    id: pid(n),
    name: `Project ${n}`,
    status: "completed",
    protocol: "sms",
    type: "broadcast",
    channel: "10dlc",
    organization_id: ORG_A,
    brand_id: "b",
    campaign_id: "c",
    total_recipients: 0,
    messages_sent: 0,
    messages_delivered: 0,
    messages_failed: 0,
    messages_opted_out: 0,
    replies_received: 0,
    survey_responses_count: 0,
    survey_completion_count: 0,
    total_url_clicks: 0,
    unique_url_clicks: 0,
    url_share_count: 0,
    actual_cost: "0.0000",
    created_at: "2026-11-20T10:00:00.000Z",
    completed_at: null,
    updated_at: "2026-11-21T10:00:00.000Z",
    organization_name: "Alpha Democrats",
    brand_name: "Brand",
    campaign_name: "Campaign",
    ...over,
  };
}

/** A project detail of project `n`. */
export function detail(n: number, over: Partial<Project> = {}): Project {
  return {
    project_id: pid(n),
    organization_id: ORG_A,
    channel: "10dlc",
    brand_id: "b",
    campaign_id: "c",
    toll_free_verification_id: null,
    phone_number_ids: [],
    name: `Project ${n}`,
    status: "completed",
    type: "broadcast",
    protocol: "sms",
    message_text: "",
    contact_list_ids: [],
    suppression_list_ids: [],
    media_ids: [],
    media_urls: [],
    link_tracking_enabled: false,
    link_tracking_destination_url: "",
    link_tracking_domain_id: "",
    link_tracking_param_field: "",
    link_tracking_fallback_url: null,
    opt_out_footer_enabled: false,
    ai_survey_analysis_enabled: false,
    total_recipients: 0,
    estimated_cost_cents: 0,
    scheduled_at: null,
    scheduled_timezone: null,
    created_via_api: false,
    created_at: "2026-11-20T10:00:00.000Z",
    updated_at: "2026-11-21T10:00:00.000Z",
    ...over,
  };
}

export interface Entry {
  readonly address?: string;
  readonly row?: ProjectStatsRow;
  readonly detail?: LiveRead<Project>;
  readonly id?: string;
}

/** A report of `entries` (in order) as `status` would build it from these reads. */
export function reportOf(entries: readonly Entry[], estimates = true): StatusReport {
  const range = statusRange(NOW, undefined);
  if (!range.ok) throw new Error("range");
  const selected = entries.map((e, i) => ({
    id: e.id ?? e.row?.id ?? (e.detail?.kind === "found" ? e.detail.value.project_id : pid(900 + i)),
    address: e.address ?? null,
  }));
  return buildStatusReport(
    {
      ok: true,
      now: NOW,
      range: range.range,
      organizations: [
        {
          id: ORG_A,
          display_name: "Alpha Democrats",
          parent_org_name: null,
          status: "active",
          created_at: "",
        },
        {
          id: ORG_B,
          display_name: "Beta Youth",
          parent_org_name: "Alpha Democrats",
          status: "active",
          created_at: "",
        },
      ],
      selected,
      rows: new Map(entries.flatMap((e, i) => (e.row === undefined ? [] : [[selected[i]?.id ?? "", e.row]]))),
      details: new Map(
        entries.flatMap((e, i) => (e.detail === undefined ? [] : [[selected[i]?.id ?? "", e.detail]])),
      ),
      reads: { statsPages: 1, projectsReadById: 0, detailsFromCache: 0 },
      diagnostics: [],
    },
    { paths: ["."], all: false, organization: null },
    estimates,
  );
}
