/**
 * Hover in a campaign file, pure: what the value under the cursor means for a send.
 * - On a message: each text a contact can get (every tag at its fallback or `merge_defaults`, each
 *   tag with the contact's own value, shown as `[field]`), its encoding and segments per
 *   recipient, and, from the offline snapshot's last read of the project, its recipients and the
 *   API's estimated cost per recipient and in all.
 * - On a schedule: the send time in the schedule's zone and in UTC, and whether it falls in the
 *   quiet hours (outside 08:00-21:00 local, src/text/send-window.ts).
 * - On a name (list, number, brand, registration, tracking domain): what it resolves to in the
 *   snapshot's organization.
 * The project under the cursor is found through the places the checks use (`locate`), so a value
 * written in `defaults` explains itself for the first project that takes it. A file with schema
 * errors still explains every value that can be read, as validate still judges it (issue 35): its
 * projects are the assembly's `partial` ones too, built without the keys the errors make
 * untrusted, and a value is explained only when every key its explanation reads is trusted.
 */

import { assembleFile, type FileAssembly } from "../../src/campaign/assemble.js";
import { decodeCampaignFile } from "../../src/campaign/decode.js";
import { scheduleTimes } from "../../src/campaign/lint/schedule-times.js";
import type { ProjectSpec, SpecPath } from "../../src/campaign/model.js";
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";
import { parseMergeTags, tagsOf } from "../../src/message/merge-tags.js";
import { render } from "../../src/message/render.js";
import { analyzeSegments } from "../../src/message/segments.js";
import type { SnapshotOrganization } from "../../src/plan/snapshot.js";
import { DEFAULT_SEND_WINDOW, insideSendWindow, localClock, windowText } from "../../src/text/send-window.js";
import type { NameKey } from "./completion.js";
import { namesOf } from "./snapshot-names.js";

/** What hover knows besides the text: the snapshot's organization of the file, when there is one. */
export interface HoverSources {
  readonly organization?: SnapshotOrganization;
  /** Why there is no organization (no snapshot, or the file's organization is not in it). */
  readonly missing?: string;
}

/** The hover's Markdown and the range it explains, or undefined where there is nothing to say. */
export interface HoverText {
  readonly markdown: string;
  readonly range: SourceRange;
}

const contains = (range: SourceRange, offset: number): boolean =>
  range.start.offset <= offset && offset <= range.end.offset;

/**
 * The project keys whose values hover explains: the first key of every path hoverOnProject
 * locates (the message, the schedule and NAMED's). Kept beside NAMED: a path added there is added here.
 */
export const HOVERED_KEYS: ReadonlySet<string> = new Set([
  "message",
  "schedule",
  "contact_lists",
  "suppression_lists",
  "phone_numbers",
  "brand",
  "campaign",
  "toll_free_verification",
  "link_tracking",
]);

const NAMED: readonly { key: NameKey; path: (p: ProjectSpec) => readonly SpecPath[] }[] = [
  { key: "contact_lists", path: (p) => (p.contactLists ?? []).map((_, i) => ["contact_lists", i]) },
  {
    key: "suppression_lists",
    path: (p) => (p.suppressionLists ?? []).map((_, i) => ["suppression_lists", i]),
  },
  { key: "phone_numbers", path: (p) => (p.phoneNumbers ?? []).map((_, i) => ["phone_numbers", i]) },
  { key: "brand", path: (p) => (p.brand === undefined ? [] : [["brand"]]) },
  { key: "campaign", path: (p) => (p.tenDlcCampaign === undefined ? [] : [["campaign"]]) },
  {
    key: "toll_free_verification",
    path: (p) => (p.tollFreeVerification === undefined ? [] : [["toll_free_verification"]]),
  },
  {
    key: "domain",
    path: (p) => (p.linkTracking?.domain === undefined ? [] : [["link_tracking", "domain"]]),
  },
];

function valueAt(p: ProjectSpec, path: SpecPath): string | undefined {
  const [key, index] = path;
  switch (key) {
    case "contact_lists":
      return p.contactLists?.[Number(index)];
    case "suppression_lists":
      return p.suppressionLists?.[Number(index)];
    case "phone_numbers":
      return p.phoneNumbers?.[Number(index)];
    case "brand":
      return p.brand;
    case "campaign":
      return p.tenDlcCampaign;
    case "toll_free_verification":
      return p.tollFreeVerification;
    case "link_tracking":
      return p.linkTracking?.domain;
    default:
      return undefined;
  }
}

/** A project hover may explain, with the keys it cannot trust (none in a schema-valid file). */
interface ReadableProject {
  readonly project: ProjectSpec;
  readonly untrusted: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Every project of the file that can be read, in the file's order: the schema-valid ones and those
 * built without their untrusted keys (a broken phone in `defaults` leaves every message readable).
 */
export function readableProjects(assembly: FileAssembly): ReadableProject[] {
  const order = new Map(assembly.declarations.map((d, i) => [d.address, i]));
  const at = (r: ReadableProject): number => order.get(r.project.address) ?? order.size;
  return [
    ...assembly.projects.map((project) => ({ project, untrusted: NONE })),
    ...(assembly.partial ?? []),
  ].sort((a, b) => at(a) - at(b));
}

export function hoverAt(
  path: string,
  text: string,
  offset: number,
  sources: HoverSources,
): HoverText | undefined {
  const file = decodeCampaignFile(path, Buffer.from(text, "utf8")).file;
  if (file === undefined) return undefined;
  for (const readable of readableProjects(assembleFile(file))) {
    const found = hoverOnProject(readable, offset, sources);
    if (found !== undefined) return found;
  }
  return undefined;
}

function hoverOnProject(
  { project, untrusted }: ReadableProject,
  offset: number,
  sources: HoverSources,
): HoverText | undefined {
  if (project.message !== undefined && !untrusted.has("message")) {
    const range = project.locate(["message"]);
    if (contains(range, offset)) {
      const markdown = messageHover(project, project.message, sources);
      return {
        markdown: untrusted.has("merge_defaults")
          ? `${markdown}\n\n\`merge_defaults\` has an error, so its values are not shown here.`
          : markdown,
        range,
      };
    }
  }
  if (project.schedule !== undefined && !untrusted.has("schedule")) {
    const range = project.locate(["schedule", "at"]);
    if (contains(range, offset)) return { markdown: scheduleHover(project), range };
  }
  for (const named of NAMED)
    for (const where of named.path(project)) {
      const range = project.locate(where);
      const value = valueAt(project, where);
      if (value !== undefined && !untrusted.has(String(where[0])) && contains(range, offset))
        return { markdown: nameHover(named.key, value, sources), range };
    }
  return undefined;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(cents < 100 && cents % 1 !== 0 ? 4 : 2)}`;
}

function messageHover(project: ProjectSpec, message: string, sources: HoverSources): string {
  const parsed = parseMergeTags(message);
  const names = [...new Set(tagsOf(parsed).map((t) => t.name))];
  const variants: { who: string; valued: readonly string[] }[] = [
    { who: "a contact with no values", valued: [] },
  ];
  for (const name of names) variants.push({ who: `a contact with a value for ${name}`, valued: [name] });
  if (names.length > 1) variants.push({ who: "a contact with every value", valued: names });
  const out = [`**${project.address}**: what a contact receives`, ""];
  let most = 0;
  for (const v of variants) {
    const values = Object.fromEntries(v.valued.map((n) => [n, `[${n}]`]));
    const rendered = render(parsed, values, project.mergeDefaults).text;
    const info = analyzeSegments(rendered);
    most = Math.max(most, info.segments);
    out.push(
      `- ${v.who}: ${info.encoding}, ${plural(info.characters, "character")}, ${plural(info.segments, "segment")}`,
      `  > ${rendered.replace(/\n/g, "\n  > ")}`,
    );
  }
  const known = sources.organization?.projects.find((p) => p.id === project.id);
  out.push("");
  if (known === undefined)
    out.push(
      `Up to ${plural(most, "segment")} per recipient. Recipients and cost: ${sources.missing ?? `the snapshot has not read project ${project.id}`}.`,
    );
  else {
    const each = known.total_recipients === 0 ? 0 : known.estimated_cost_cents / known.total_recipients;
    out.push(
      `Up to ${plural(most, "segment")} per recipient; ${plural(known.total_recipients, "recipient")}, about ${plural(known.total_recipients * most, "segment")} in all.`,
      `Estimated cost (the API's, at the snapshot's read): ${dollars(each)} per recipient, ${dollars(known.estimated_cost_cents)} in all.`,
    );
  }
  return out.join("\n");
}

function scheduleHover(project: ProjectSpec): string {
  const schedule = project.schedule;
  if (schedule === undefined) return "";
  if (schedule.at === "now") return `**${project.address}** is sent as soon as it is applied (\`at: now\`).`;
  const times = scheduleTimes(schedule);
  if (times === undefined) return `\`${schedule.at}\` is not a date-time with an offset.`;
  const local = times.local;
  const quiet = !insideSendWindow(DEFAULT_SEND_WINDOW, local);
  return [
    `**${project.address}** sends at:`,
    "",
    `- ${local.toFormat("cccc d LLLL yyyy")} ${localClock(local)} in ${schedule.timezone} (UTC${local.toFormat("ZZ")})`,
    `- ${times.at.toUTC().toFormat("yyyy-LL-dd HH:mm")} UTC`,
    "",
    quiet
      ? `**In the quiet hours**: outside ${windowText(DEFAULT_SEND_WINDOW)} local time (TCPA); contacts in other zones may be earlier or later still.`
      : `Inside ${windowText(DEFAULT_SEND_WINDOW)} local time (not in the quiet hours) in ${schedule.timezone}.`,
  ].join("\n");
}

function nameHover(key: NameKey, value: string, sources: HoverSources): string {
  const org = sources.organization;
  if (org === undefined) return `\`${value}\`: ${sources.missing ?? "no offline snapshot"}.`;
  const choices = namesOf(org, key);
  const found = choices.filter(
    (c) => c.name === value || c.detail.split(" ").some((w) => w.replace(/,$/, "") === value),
  );
  if (found.length === 1) return `\`${value}\`: ${found[0]?.detail} in ${org.name} (offline snapshot).`;
  if (found.length > 1)
    return `\`${value}\` names ${found.length} records in ${org.name}: ${found.map((f) => f.detail).join("; ")}.`;
  return `\`${value}\`: no such name in ${org.name} in the offline snapshot (run \`campaignctl plan\` to read it again).`;
}
