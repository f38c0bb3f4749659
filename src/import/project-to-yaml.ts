/**
 * One live project as the campaign-file keys that describe it exactly: every content field the plan
 * compares (`plan/drift.ts`), the lifecycle (`lifecycle.ts`), references by name where the name is
 * unambiguous (`names.ts`). Pure: records in, wanted keys out.
 */
import { STANDARD_FIELDS } from "../contract/limits.js";
import type { Project } from "../contract/resources.js";
import { parseMergeTags, TAG_NAME_PATTERN, tagsOf } from "../message/merge-tags.js";
import type { Catalogs, ReferenceKind } from "../plan/catalogs.js";
import { type ImportedSchedule, pauseReasonOf, scheduleOf, stateOf } from "./lifecycle.js";
import { type WrittenRef, writtenRef } from "./names.js";
import { type ManagedKey, scalar, type YamlOut } from "./yaml-out.js";

/** What the file should say about a value, in terms the plan compares. */
export type Semantic =
  | { readonly kind: "text"; readonly value: string }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "ref"; readonly ref: ReferenceKind; readonly id: string }
  | { readonly kind: "refs"; readonly ref: ReferenceKind; readonly ids: readonly string[] }
  | { readonly kind: "link"; readonly value: LinkTrackingWanted }
  | { readonly kind: "schedule"; readonly value: ImportedSchedule }
  | { readonly kind: "pause"; readonly reason?: string };

/** Live link tracking in the file's terms; absent members are not written (and not compared). */
export interface LinkTrackingWanted {
  readonly destination_url: string;
  readonly domain?: string;
  readonly param_field?: string;
  readonly fallback_url?: string;
}

/**
 * What import wants for one key: `set` (written so, compared by meaning), `absent` (the file must
 * not describe it: the live project has no such value, or one the key cannot see; `note` says why)
 * or `keep` (not shown by the API for this project: whatever the file says stays).
 */
export type Wanted =
  | { readonly kind: "set"; readonly out: YamlOut; readonly semantic: Semantic }
  | { readonly kind: "absent"; readonly note?: string }
  | { readonly kind: "keep" };

/** A live project as import describes it. Invariant: `wanted` has an entry for every managed key. */
export interface ImportedProject {
  readonly id: string;
  readonly name: string;
  readonly organizationId: string;
  readonly status: Project["status"];
  readonly wanted: ReadonlyMap<ManagedKey, Wanted>;
  /** Custom fields its merge tags and link tracking use (beyond the standard ones). */
  readonly customFields: readonly string[];
  /** Comment lines written under a newly added project (test skeleton, what was left out and why). */
  readonly notes: readonly string[];
}

const URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/;
const WHOLE_TAG = /^\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*(\|[^}]*)?\}\}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The test block a draft project needs before it can leave draft, as comment lines. */
const TEST_SKELETON: readonly string[] = [
  "To send it, set `state: tested` (or `scheduled`, with a `schedule:`) and add the test send:",
  "test:",
  "  contacts:",
  '    - phone: "+15555550100"',
  "      merge_values: { first_name: Test }",
];

export function importProject(project: Project, catalogs: Catalogs): ImportedProject {
  const wanted = new Map<ManagedKey, Wanted>();
  const notes: string[] = [];
  const set = (key: ManagedKey, out: YamlOut, semantic: Semantic) =>
    wanted.set(key, { kind: "set", out, semantic });
  const absent = (key: ManagedKey, note?: string) => {
    wanted.set(key, note === undefined ? { kind: "absent" } : { kind: "absent", note });
    if (note !== undefined) notes.push(note);
  };
  const text = (key: ManagedKey, value: string, out: YamlOut = scalar(value)) =>
    set(key, out, { kind: "text", value });

  text("name", project.name);
  text("type", project.type);
  if (project.channel === "10dlc" || project.channel === "toll-free") text("channel", project.channel);
  else absent("channel", `channel: "${project.channel}" is not a channel campaign files describe`);

  const single = (key: ManagedKey & ReferenceKind, id: string | null) => {
    if (id === null || id === "") return absent(key);
    const ref = writtenRef(catalogs, key, id);
    if (!ref.visible) return absent(key, `${key}: ${id} is left out: ${ref.comment ?? "not visible"}`);
    set(key, scalar(ref.value, byIdComment(ref)), { kind: "ref", ref: key, id });
  };
  single("brand", project.brand_id);
  single("campaign", project.campaign_id);
  single("toll_free_verification", project.toll_free_verification_id);

  const many = (key: ManagedKey & ReferenceKind, ids: readonly string[], allowEmpty: boolean) => {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0 && !allowEmpty) return absent(key);
    const refs = distinct.map((id) => writtenRef(catalogs, key, id));
    const hidden = refs.filter((r) => !r.visible);
    if (hidden.length > 0)
      return absent(key, `${key}: left out, the key cannot see ${hidden.map((r) => r.id).join(", ")}`);
    set(
      key,
      { kind: "seq", items: refs.map((r) => scalar(r.value, byIdComment(r))) },
      { kind: "refs", ref: key, ids: distinct },
    );
  };
  // The schema wants at least one phone number; an empty live list is simply not described.
  many("phone_numbers", project.phone_number_ids, false);
  many("contact_lists", project.contact_list_ids, true);
  many("suppression_lists", project.suppression_list_ids, true);
  many("media", project.media_ids, true);

  if (project.message_text === "") absent("message");
  else text("message", project.message_text, { kind: "scalar", value: project.message_text, message: true });

  const link = linkTrackingOf(project);
  if (link === undefined) absent("link_tracking");
  else if (typeof link === "string") absent("link_tracking", link);
  else set("link_tracking", linkOut(link), { kind: "link", value: link });

  set("opt_out_footer", scalar(project.opt_out_footer_enabled), {
    kind: "bool",
    value: project.opt_out_footer_enabled,
  });
  const state = stateOf(project.status);
  text("state", state);

  const schedule = scheduleOf(project);
  if (schedule === undefined) wanted.set("schedule", { kind: "keep" });
  else set("schedule", scheduleOut(schedule), { kind: "schedule", value: schedule });

  if (project.status === "paused") {
    const reason = pauseReasonOf(project);
    set(
      "pause",
      { kind: "map", pairs: reason === undefined ? [] : [["reason", scalar(reason)]] },
      reason === undefined ? { kind: "pause" } : { kind: "pause", reason },
    );
  } else wanted.set("pause", { kind: "keep" });

  if (project.type === "survey")
    notes.unshift("A survey: only its intro (`message`) is compared, not its questions.");
  if (state === "draft") notes.push(...TEST_SKELETON);
  return {
    id: project.project_id,
    name: project.name,
    organizationId: project.organization_id,
    status: project.status,
    wanted,
    customFields: customFieldsOf(project, link),
    notes,
  };
}

function byIdComment(ref: WrittenRef): string | undefined {
  return ref.comment === undefined ? undefined : `by id: ${ref.comment}`;
}

/** Live link tracking as the file writes it; a string says why it cannot be described. */
function linkTrackingOf(project: Project): LinkTrackingWanted | string | undefined {
  if (!project.link_tracking_enabled) return undefined;
  const destination = project.link_tracking_destination_url;
  if (!URL_PATTERN.test(destination) && !WHOLE_TAG.test(destination))
    return `link_tracking: left out, its destination "${destination}" is not a URL the file format accepts`;
  const fallback = project.link_tracking_fallback_url;
  const param = project.link_tracking_param_field;
  // Left out whole, never in part: a member the file omits is not compared, so a later edit of it
  // would show neither in `plan` nor in `import --check`.
  if (param !== "" && !FIELD_NAME.test(param))
    return `link_tracking: left out, its param field "${param}" is not a field name the file format accepts`;
  if (fallback !== null && fallback !== "" && !URL_PATTERN.test(fallback))
    return `link_tracking: left out, its fallback "${fallback}" is not a URL the file format accepts`;
  return {
    destination_url: destination,
    ...(project.link_tracking_domain_id !== "" ? { domain: project.link_tracking_domain_id } : {}),
    ...(param !== "" ? { param_field: param } : {}),
    ...(fallback !== null && fallback !== "" ? { fallback_url: fallback } : {}),
  };
}

function linkOut(link: LinkTrackingWanted): YamlOut {
  const pairs: [string, YamlOut][] = [["destination_url", scalar(link.destination_url)]];
  if (link.domain !== undefined)
    pairs.push([
      "domain",
      scalar(link.domain, "by id: the API has no tracking-domain read, so only an id can be checked"),
    ]);
  if (link.param_field !== undefined) pairs.push(["param_field", scalar(link.param_field)]);
  if (link.fallback_url !== undefined) pairs.push(["fallback_url", scalar(link.fallback_url)]);
  return { kind: "map", pairs };
}

function scheduleOut(schedule: ImportedSchedule): YamlOut {
  const pairs: [string, YamlOut][] = [
    ["at", scalar(schedule.at)],
    ["timezone", scalar(schedule.timezone)],
  ];
  if (schedule.dailyCapBypass === true) pairs.push(["daily_cap_bypass", scalar(true)]);
  return { kind: "map", pairs };
}

/** Merge tags of the message and link tracking that name fields beyond the standard ones. */
function customFieldsOf(project: Project, link: LinkTrackingWanted | string | undefined): string[] {
  const names = new Set<string>();
  const standard = new Set<string>(STANDARD_FIELDS);
  const addTags = (text: string) => {
    for (const tag of tagsOf(parseMergeTags(text))) if (!standard.has(tag.name)) names.add(tag.name);
  };
  addTags(project.message_text);
  if (link !== undefined && typeof link !== "string") {
    addTags(link.destination_url);
    if (
      link.param_field !== undefined &&
      !standard.has(link.param_field) &&
      TAG_NAME_PATTERN.test(link.param_field)
    )
      names.add(link.param_field);
  }
  return [...names].sort();
}
