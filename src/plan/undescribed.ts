/**
 * The describe rule (issue 9 "What goes out must be described"): for a project whose desired state
 * sends (`tested`, `scheduled`), live content the file leaves undescribed must be at its neutral
 * value; anything else is drift ("not described: <live value>"), which blocks the test and the
 * schedule until the file says it (or the dashboard clears it). Described fields are compared as
 * usual (src/plan/drift.ts). The message itself, and for `scheduled` the contact lists, must be
 * described at all: that is a load-time error (`campaign.message-missing`,
 * `campaign.contact-lists-missing`), not part of this table.
 *
 * This table is the one source of the rule: the planner applies it and the docs show it (a test
 * checks the docs' table against it). `import` needs no copy of it: it writes every content field the
 * plan compares, so an imported file describes whatever is not neutral. The live fields deliberately outside the rule,
 * and why, are listed in docs/campaign-files.md ("Not judged"). Pure data.
 */
import type { DesiredState } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { DriftField } from "./types.js";

/** The fields the rule judges (a row each in UNDESCRIBED_RULES). */
export type UndescribedField = Extract<
  DriftField,
  "media" | "link_tracking" | "opt_out_footer" | "suppression_lists" | "phone_numbers"
>;

/**
 * One row of the rule. Invariant: `isNeutral(p)` is true exactly when `p` carries nothing for this
 * field that a recipient would receive or that would change who receives it; `key` is the campaign
 * file's key that describes it.
 */
export interface UndescribedRule {
  readonly field: UndescribedField;
  /** The campaign file key that describes the field. */
  readonly key: string;
  /** The live API field(s) judged. */
  readonly live: string;
  /** The neutral live value, as shown in the docs and the plan. */
  readonly neutral: string;
  readonly isNeutral: (project: Project) => boolean;
}

/** Field → neutral live value. Order is the order findings are reported in. */
export const UNDESCRIBED_RULES: readonly UndescribedRule[] = [
  {
    field: "media",
    key: "media",
    live: "media_ids",
    neutral: "no media (an SMS)",
    isNeutral: (p) => p.media_ids.length === 0,
  },
  {
    field: "link_tracking",
    key: "link_tracking",
    live: "link_tracking_enabled",
    neutral: "off",
    isNeutral: (p) => !p.link_tracking_enabled,
  },
  {
    field: "opt_out_footer",
    key: "opt_out_footer",
    live: "opt_out_footer_enabled",
    neutral: "off",
    isNeutral: (p) => !p.opt_out_footer_enabled,
  },
  {
    field: "suppression_lists",
    key: "suppression_lists",
    live: "suppression_list_ids",
    neutral: "none",
    isNeutral: (p) => p.suppression_list_ids.length === 0,
  },
  {
    field: "phone_numbers",
    key: "phone_numbers",
    live: "phone_number_ids",
    neutral: "none",
    isNeutral: (p) => p.phone_number_ids.length === 0,
  },
];

/** The desired states that send, for which the rule applies. */
export function sendsContent(state: DesiredState): boolean {
  switch (state) {
    case "tested":
    case "scheduled":
      return true;
    case "draft":
    case "paused":
      return false;
  }
}
