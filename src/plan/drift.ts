/**
 * Drift: every field the file describes, compared with the live project. Pure. Reference fields are
 * compared as ids (sets for lists), and only when the reference resolved (an unresolved one is
 * already an error). Each difference is a `Drift` and an error diagnostic `plan.drift` at the file's
 * value. Fields the file does not describe follow the describe rule (src/plan/undescribed.ts): for
 * a project whose desired state sends, an undescribed field must be at its neutral live value, else
 * it is drift too (`plan.drift`, at the project's key, "not described").
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { displayOf } from "./catalog.js";
import type { Catalogs, ReferenceKind } from "./catalogs.js";
import { compareLinkTracking, describe as describeLinkTracking } from "./link-tracking.js";
import type { ResolvedRef, ResolvedReferences } from "./resolve.js";
import type { Drift, DriftField } from "./types.js";
import { sendsContent, UNDESCRIBED_RULES, type UndescribedRule } from "./undescribed.js";

/** The `after_text` of a field the file does not describe. */
export const NOT_DESCRIBED = "not described";

/** What to do about any drift (design.md principle 2: the API cannot edit projects). */
export const DRIFT_FIX = "edit the file to match, or change the project in the dashboard";

/** The note a survey's plan carries (only its intro is described and compared). */
export const SURVEY_NOTE = "survey questions are not compared";

export interface DriftResult {
  readonly drift: readonly Drift[];
  readonly diagnostics: readonly Diagnostic[];
  readonly notes: readonly string[];
}

const LABEL: Readonly<Record<DriftField, string>> = {
  name: "name",
  message: "message text",
  contact_lists: "contact lists",
  suppression_lists: "suppression lists",
  media: "media",
  phone_numbers: "phone numbers",
  brand: "brand",
  campaign: "10DLC campaign",
  toll_free_verification: "toll-free verification",
  channel: "channel",
  link_tracking: "link tracking",
  opt_out_footer: "opt-out footer",
  type: "type",
};

export function diffProject(
  spec: ProjectSpec,
  project: Project,
  refs: ResolvedReferences,
  catalogs: Catalogs,
): DriftResult {
  const drift: Drift[] = [];
  const diagnostics: Diagnostic[] = [];
  const notes: string[] = [];
  const add = (
    field: DriftField,
    before: unknown,
    after: unknown,
    beforeText: string,
    afterText: string,
  ): void => {
    drift.push({ field, before, after, before_text: beforeText, after_text: afterText, fix: DRIFT_FIX });
    diagnostics.push({
      severity: "error",
      code: "plan.drift",
      message:
        field === "message"
          ? `${spec.address}: the live project's ${LABEL[field]} differs from the file`
          : `${spec.address}: ${LABEL[field]} is ${beforeText} on the live project, the file says ${afterText}`,
      range: spec.locate([field]),
      hint: `${DRIFT_FIX}; sending (test, schedule) is blocked until they agree, pausing is not`,
    });
  };
  const scalar = (
    field: DriftField,
    desired: string | boolean | undefined,
    actual: string | boolean,
  ): void => {
    if (desired !== undefined && desired !== actual) add(field, actual, desired, show(actual), show(desired));
  };

  scalar("name", spec.name, project.name);
  scalar("type", spec.type, project.type);
  scalar("channel", spec.channel, project.channel);
  // The message's display texts are the raw texts, so that a report can show a unified diff.
  if (spec.message !== undefined && spec.message !== project.message_text)
    add("message", project.message_text, spec.message, project.message_text, spec.message);
  if (spec.type === "survey") notes.push(SURVEY_NOTE);

  const reference = (
    field: DriftField & ReferenceKind,
    desired: ResolvedRef | undefined,
    actual: string | null,
  ) => {
    if (desired === undefined || desired.id === (actual ?? "")) return;
    add(
      field,
      actual,
      desired.id,
      actual === null || actual === "" ? "(none)" : displayOf(catalogs[field], actual),
      desired.display,
    );
  };
  reference("brand", refs.brand, project.brand_id);
  reference("campaign", refs.tenDlcCampaign, project.campaign_id);
  reference("toll_free_verification", refs.tollFreeVerification, project.toll_free_verification_id);

  const set = (
    field: DriftField & ReferenceKind,
    desired: readonly ResolvedRef[] | undefined,
    actual: readonly string[],
  ) => {
    if (desired === undefined) return;
    const want = [...new Set(desired.map((r) => r.id))].sort();
    const have = [...new Set(actual)].sort();
    if (want.length === have.length && want.every((id, i) => id === have[i])) return;
    const names = (ids: readonly string[]) =>
      ids.length === 0 ? "(none)" : ids.map((id) => displayOf(catalogs[field], id)).join(", ");
    add(field, have, want, names(have), names(want));
  };
  set("contact_lists", refs.contactLists, project.contact_list_ids);
  set("suppression_lists", refs.suppressionLists, project.suppression_list_ids);
  set("media", refs.media, project.media_ids);
  set("phone_numbers", refs.phoneNumbers, project.phone_number_ids);

  if (spec.linkTracking !== undefined) {
    const link = compareLinkTracking(spec.linkTracking, project);
    if (link.differs) add("link_tracking", link.before, link.after, link.beforeText, link.afterText);
    if (link.uncheckedDomain !== undefined)
      diagnostics.push({
        severity: "info",
        code: "plan.tracking-domain-unchecked",
        message: `${spec.address}: tracking domain "${link.uncheckedDomain}" is a name, which cannot be checked: the API has no tracking-domain read`,
        range: spec.locate(["link_tracking", "domain"]),
        hint: `write the domain's id (the live project uses ${project.link_tracking_domain_id || "none"}) to have it compared`,
      });
  }
  scalar("opt_out_footer", spec.optOutFooter, project.opt_out_footer_enabled);

  if (sendsContent(spec.state))
    for (const rule of UNDESCRIBED_RULES) {
      if (isDescribed(spec, rule) || rule.isNeutral(project)) continue;
      const live = liveValue(rule, project, catalogs);
      drift.push({
        field: rule.field,
        before: live.value,
        after: null,
        before_text: live.text,
        after_text: NOT_DESCRIBED,
        fix: `describe it in the file (\`${rule.key}\`), or clear it in the dashboard`,
      });
      diagnostics.push({
        severity: "error",
        code: "plan.drift",
        message: `${spec.address}: ${LABEL[rule.field]} is ${live.text} on the live project, and the file does not describe it`,
        range: spec.range,
        hint: `a project that sends must describe what goes out: add \`${rule.key}\` to the file, or clear it in the dashboard (neutral: ${rule.neutral}); sending is blocked until then`,
      });
    }
  return { drift, diagnostics, notes };
}

function isDescribed(spec: ProjectSpec, rule: UndescribedRule): boolean {
  switch (rule.field) {
    case "media":
      return spec.media !== undefined;
    case "link_tracking":
      return spec.linkTracking !== undefined;
    case "opt_out_footer":
      return spec.optOutFooter !== undefined;
    case "suppression_lists":
      return spec.suppressionLists !== undefined;
    case "phone_numbers":
      return spec.phoneNumbers !== undefined;
  }
}

function liveValue(
  rule: UndescribedRule,
  project: Project,
  catalogs: Catalogs,
): { readonly value: unknown; readonly text: string } {
  const names = (kind: "media" | "suppression_lists" | "phone_numbers", ids: readonly string[]) => ({
    value: [...new Set(ids)].sort(),
    text: ids.map((id) => displayOf(catalogs[kind], id)).join(", "),
  });
  switch (rule.field) {
    case "media":
      return names("media", project.media_ids);
    case "suppression_lists":
      return names("suppression_lists", project.suppression_list_ids);
    case "phone_numbers":
      return names("phone_numbers", project.phone_number_ids);
    case "opt_out_footer":
      return { value: project.opt_out_footer_enabled, text: show(project.opt_out_footer_enabled) };
    case "link_tracking": {
      const value = {
        enabled: project.link_tracking_enabled,
        destination_url: project.link_tracking_destination_url,
      };
      return { value, text: describeLinkTracking(value) };
    }
  }
}

function show(value: string | boolean): string {
  return typeof value === "boolean" ? (value ? "on" : "off") : JSON.stringify(value);
}
