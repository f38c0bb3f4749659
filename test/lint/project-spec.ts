/**
 * Hand-built ProjectSpec values for rule tests, with `locate` functions whose ranges say what was
 * asked for: `locate(path)` answers line `PATH_LINES[path.join(".")]` (1 when not listed), and
 * `locateInMessage(start, end)` answers line `MESSAGE_LINE` with columns `MESSAGE_COLUMN + start` to
 * `MESSAGE_COLUMN + end` and offsets `MESSAGE_OFFSET + start` / `+ end`.
 */

import type { Campaign, ProjectSpec, SpecPath } from "../../src/campaign/model.js";
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";

export const FILE = "campaign.yaml";
export const MESSAGE_LINE = 7;
export const MESSAGE_COLUMN = 14;
export const MESSAGE_OFFSET = 200;

export const PATH_LINES: Readonly<Record<string, number>> = {
  message: 7,
  "schedule.at": 12,
  "schedule.daily_cap_bypass": 14,
  "link_tracking.destination_url": 20,
  "link_tracking.param_field": 21,
  "link_tracking.fallback_url": 22,
};

function lineRange(line: number): SourceRange {
  return {
    file: FILE,
    start: { line, column: 3, offset: line * 100 },
    end: { line, column: 10, offset: line * 100 + 7 },
  };
}

export function messageRange(start: number, end: number): SourceRange {
  return {
    file: FILE,
    start: { line: MESSAGE_LINE, column: MESSAGE_COLUMN + start, offset: MESSAGE_OFFSET + start },
    end: { line: MESSAGE_LINE, column: MESSAGE_COLUMN + end, offset: MESSAGE_OFFSET + end },
  };
}

export function lineOf(path: SpecPath): SourceRange {
  return lineRange(PATH_LINES[path.join(".")] ?? 1);
}

export type SpecOverrides = Partial<Omit<ProjectSpec, "locate" | "locateInMessage" | "range">>;

export function projectSpec(overrides: SpecOverrides = {}): ProjectSpec {
  return {
    address: "gotv-reminder",
    file: FILE,
    id: "9a000000-0000-4000-8000-000000000001",
    type: "broadcast",
    message: "Hi {{first_name|friend}}, vote Tuesday! Reply STOP to opt out",
    state: "draft",
    after: [],
    mergeDefaults: {},
    fields: [],
    range: lineRange(3),
    locate: lineOf,
    locateInMessage: messageRange,
    ...overrides,
  };
}

export function campaignOf(...projects: ProjectSpec[]): Campaign {
  return { files: [], projects };
}
