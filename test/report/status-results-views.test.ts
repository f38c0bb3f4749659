/**
 * The views of `status` and `results` (src/report/status-view.ts, results-view.ts), one per format,
 * pinned byte for byte by golden files (test/golden/status-view.*, results-view.*) written from what
 * the commands printed before the views existed: choosing the view once changed no byte. A status
 * with every section (two organizations, replies answered, an experiment, an email campaign) and one
 * with none; a results report with an experiment.
 */
import { describe, expect, test } from "vitest";
import type { ExperimentSpec } from "../../src/campaign/model.js";
import type { EmailCampaignFigures } from "../../src/email/figures.js";
import { summarizeAnswered } from "../../src/replies/answered-summary.js";
import { type RecordFormat, recordView } from "../../src/report/results-record-view.js";
import { type ResultsFormat, resultsView } from "../../src/report/results-view.js";
import { type StatusFormat, type StatusRead, statusView } from "../../src/report/status-view.js";
import { resultsExperiments } from "../../src/results/experiments.js";
import { periodOf } from "../../src/results/period.js";
import { buildResultsReport } from "../../src/results/report.js";
import { statusExperiments } from "../../src/status/experiments.js";
import { documentOf } from "../helpers/schemas.js";
import { snap } from "../results/snapshots.js";
import { detail, type Entry, ORG_B, pid, reportOf, row } from "../status/fixtures.js";
import { expectGolden } from "./golden.js";

const RANGE = {
  file: "campaign/gotv.yaml",
  start: { line: 20, column: 3, offset: 400 },
  end: { line: 20, column: 13, offset: 410 },
};
const EXPERIMENT: ExperimentSpec = {
  name: "opener",
  file: "campaign/gotv.yaml",
  arms: ["gotv-a", "gotv-b"],
  metric: "reply_rate",
  minSample: 100,
  range: RANGE,
  armRanges: [RANGE, RANGE],
};

const sent = (n: number, count: number, over = {}) =>
  row(n, {
    status: "active",
    total_recipients: count + 10,
    messages_sent: count,
    messages_delivered: count - 4,
    messages_failed: 4,
    messages_opted_out: 2,
    replies_received: Math.floor(count / 20),
    actual_cost: `${Math.floor(count / 100)}.${String(count % 100).padStart(2, "0")}00`,
    ...over,
  });
const ENTRIES: readonly Entry[] = [
  { address: "gotv-a", row: sent(1, 1_200), detail: { kind: "found", value: detail(1) } },
  { address: "gotv-b", row: sent(2, 1_150), detail: { kind: "found", value: detail(2) } },
  { address: "youth", row: sent(3, 300, { organization_id: ORG_B, organization_name: "Beta Youth" }) },
  { address: "gone", id: pid(6), detail: { kind: "not-found" } },
];
const built = reportOf(ENTRIES);
const EMAIL: EmailCampaignFigures = {
  address: "newsletter",
  id: "e1",
  name: "November newsletter",
  status: "sending",
  counts: {
    queued: 0,
    sent: 500,
    delivered: 480,
    bounced: 20,
    complained: 1,
    unsubscribed: 3,
    opened: 200,
    clicked: 40,
    failed: 0,
  },
  rates: { delivery: 0.96, bounce: 0.04, complaint: 0.002, unsubscribe: 0.006, open: 0.4167, click: 0.0833 },
  tripped: [{ rate: "bounce", value: 0.04, limit: 0.02 }],
};
const FULL: StatusRead = {
  report: { ...built, experiments: statusExperiments([EXPERIMENT], built.projects) },
  email: { campaigns: [EMAIL], diagnostics: [], read: "read" },
  replies: {
    state: ".campaignctl/replies",
    projects: summarizeAnswered([
      {
        t: "answered",
        conversation_id: "c1",
        project_id: pid(1),
        inbound_message_id: "i1",
        rule: "where",
        answer_message_id: "m1",
        segments: 2,
        code: null,
        at: "2026-11-30T10:00:00.000Z",
        via: "accepted",
        segment_price_usd: 0.0079,
        cost_usd: 0.0158,
      },
    ]),
  },
};
const BARE: StatusRead = { report: reportOf(ENTRIES.slice(0, 1)), email: undefined, replies: null };

const STATUS_FORMATS: readonly [StatusFormat, string][] = [
  ["text", "txt"],
  ["json", "json"],
  ["csv", "csv"],
  ["markdown", "md"],
];

describe("status: each format's view renders the bytes the command printed", () => {
  for (const [format, ext] of STATUS_FORMATS)
    test(`${format}: every section, and none`, () => {
      const view = statusView(format, { width: 100 });
      for (const [name, status] of [
        ["status-view", FULL],
        ["status-view-bare", BARE],
      ] as const) {
        const text = view(status);
        if (format === "json") documentOf("status-result", text);
        expectGolden(`${name}.${ext}`, text);
      }
    });

  test("the terminal table fits the width it is given; other formats ignore it", () => {
    expect(statusView("text", { width: 60 })(FULL)).not.toBe(statusView("text", { width: 100 })(FULL));
    expect(statusView("csv", { width: 60 })(FULL)).toBe(statusView("csv", { width: null })(FULL));
  });
});

const OCTOBER = periodOf({ since: "2026-10-14", until: "2026-10-21" }, null, "2026-11-28");
const SNAPSHOTS = [
  snap("A", "2026-09-30T10:00:01.000Z", { sent: 10, replies: 1 }),
  snap("A", "2026-10-15T10:00:01.000Z", { sent: 250, delivered: 240, replies: 30, optedOut: 2, clicks: 9 }),
  snap(
    "B",
    "2026-10-20T08:00:00.000Z",
    { sent: 260, delivered: 255, replies: 12 },
    {
      organization_id: "org-2",
      organization_name: "Baker County Democrats",
    },
  ),
];
const resultsReport = buildResultsReport({
  snapshots: SNAPSHOTS,
  period: OCTOBER,
  by: { kind: "organization" },
  selection: { files: null, all: false },
  store: "results",
});
const RESULTS = {
  ...resultsReport,
  experiments: resultsExperiments(
    [{ ...EXPERIMENT, arms: ["gotv.a", "gotv.b"] }],
    new Map([
      ["gotv.a", "A"],
      ["gotv.b", "B"],
    ]),
    SNAPSHOTS,
    OCTOBER,
  ),
};

describe("results: each format's view renders the bytes the command printed", () => {
  const formats: readonly [ResultsFormat, string][] = [
    ["text", "txt"],
    ["json", "json"],
    ["csv", "csv"],
    ["markdown", "md"],
    ["html", "html"],
  ];
  for (const [format, ext] of formats)
    test(format, () => {
      const text = resultsView(format)(RESULTS);
      if (format === "json") documentOf("results-result", text);
      expectGolden(`results-view.${ext}`, text);
    });

  test("results record: text and JSON", () => {
    const summary = {
      store: "results",
      at: "2026-11-28T10:00:00.000Z",
      hour: "2026-11-28T10:00:00Z",
      projects: 2,
      counts: { written: 1, unchanged: 1, sameHour: 0, places: ["results/adams/2026-11.jsonl"] },
      windows: [{ startDate: "2026-11-01", endDate: "2026-11-28" }],
      keys: [{ source: "CAMPAIGNCTL_API_KEY", pages: 1, rows: 2, ok: true, retry: false }],
      diagnostics: [],
    };
    const formats: readonly [RecordFormat, string][] = [
      ["text", "txt"],
      ["json", "json"],
    ];
    for (const [format, ext] of formats) {
      const text = recordView(format)(summary);
      if (format === "json") documentOf("results-record-result", text);
      expectGolden(`results-record-view.${ext}`, text);
    }
  });
});
