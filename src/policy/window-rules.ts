/**
 * The policy's rules about where and when a send reaches its recipients (docs/places.md): its
 * `send_window` and `jurisdictions` judged through the one send window (src/jurisdictions:
 * the policy's window, the federal hours and each declared state's rule in force, in every zone
 * the recipients live in), and `require_places`. Each finding names the rule, the zone and the
 * local time there, and offers the starts that keep every zone inside. The federal hours are the
 * lint's and the forecast's to report (`lint.quiet-hours`, `forecast.quiet-hours`): here they only
 * shape the starts offered. Pure.
 */
import type { ProjectSpec, SpecPath } from "../campaign/model.js";
import type { DiagnosticFix } from "../diagnostics/diagnostic.js";
import {
  chosenRules,
  type JurisdictionRule,
  judgeSend,
  localText,
  parsePackReference,
  placesOfList,
  type RecipientPlaces,
  type SendRules,
  SHIPPED_PACKS,
  sendPlaces,
  sendRules,
  sourceText,
  startsThatFit,
  startText,
} from "../jurisdictions/index.js";
import type { Policy } from "./model.js";
import { sendingOf } from "./sending.js";

/**
 * What the rules know of a send beyond its file: the names and ids its organization and each of
 * its contact lists go by (offline: as the file writes them; in a plan: the live ids and names
 * too), and the send as the forecast sees it. Invariant: `lists` follows the file's
 * `contact_lists`, one entry per reference.
 */
export interface SendFacts {
  /** Empty when unknown (offline, a file that writes no `organization:`): no list can be matched. */
  readonly organization: readonly string[];
  readonly lists: readonly (readonly string[])[];
  /** Each suppression list reference, by every name and id it goes by (as `lists`); default: as written. */
  readonly suppressionLists?: readonly (readonly string[])[];
  /** From its first message to its last (the forecast's start and finish or cap pause); null: its start only. */
  readonly span: { readonly startMs: number; readonly endMs: number } | null;
  /**
   * The live project read in this run has completed: it sends nothing more, so no rule about
   * sending judges it (src/policy/sending.ts). Absent: false (offline, or not read).
   */
  readonly completed?: boolean;
}

/** The facts of `project` as its file writes them, judged at its start. */
export function offlineFacts(project: ProjectSpec): SendFacts {
  return {
    organization: project.organization === undefined ? [] : [project.organization],
    lists: (project.contactLists ?? []).map((l) => [l]),
    suppressionLists: (project.suppressionLists ?? []).map((l) => [l]),
    span: null,
  };
}

/** The state rules the policy puts in force (its `jurisdictions`), none without the rule. */
export function rulesInForce(policy: Policy | null | undefined): readonly JurisdictionRule[] {
  const j = policy?.rules.jurisdictions;
  if (j === undefined) return [];
  const packs = j.packs.flatMap((p) => {
    const pack = SHIPPED_PACKS.get(parsePackReference(p).name);
    return pack === undefined ? [] : [pack];
  });
  return chosenRules(packs, j.messages);
}

/** Each contact list's declared places (null: not declared), in the file's order. */
export function listPlaces(policy: Policy | null | undefined, facts: SendFacts): (RecipientPlaces | null)[] {
  const declared = policy?.places ?? [];
  return facts.lists.map((names) => placesOfList(declared, facts.organization, names));
}

/**
 * The one send window of `project`'s send under `policy`: the federal hours, the policy's window
 * and the state rules in force, in every zone of its lists' places (the schedule's zone for a list
 * not declared). Null without a schedule.
 */
export function projectSendRules(
  policy: Policy | null | undefined,
  project: ProjectSpec,
  facts: SendFacts,
): SendRules | null {
  const schedule = project.schedule;
  if (schedule === undefined) return null;
  const places = sendPlaces(listPlaces(policy, facts), schedule.timezone);
  return sendRules({
    zones: places.zones,
    states: places.states,
    ...(policy?.rules.send_window === undefined ? {} : { policyWindow: policy.rules.send_window }),
    stateRules: rulesInForce(policy),
  });
}

type Violation = (
  rule: "send_window" | "jurisdictions" | "require_places",
  path: SpecPath,
  message: string,
  hint: string,
  fixes?: readonly DiagnosticFix[],
) => void;

/** Where the send starts: its `at` (or the plan's clock for `at: now`), or the forecast's start. */
function startOf(project: ProjectSpec, facts: SendFacts, now: Date | null): number | null {
  if (facts.span !== null) return facts.span.startMs;
  const at = project.schedule?.at;
  if (at === undefined) return null;
  const ms = at === "now" ? (now?.getTime() ?? Number.NaN) : Date.parse(at);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * `send_window` and `jurisdictions` over the send (its start offline; its whole course when the
 * plan forecasts it): one violation per window and zone it leaves, at `schedule.at`.
 */
export function judgeWindowRules(
  policy: Policy,
  project: ProjectSpec,
  facts: SendFacts,
  now: Date | null,
  violation: Violation,
): void {
  const schedule = sendingOf(project, facts.completed === true).schedule;
  const rules = policy.rules;
  if (schedule === undefined || (rules.send_window === undefined && rules.jurisdictions === undefined))
    return;
  const startMs = startOf(project, facts, now);
  const window = projectSendRules(policy, project, facts);
  if (startMs === null || window === null) return;
  const endMs = facts.span?.endMs ?? startMs;
  const judged = judgeSend(window, startMs, endMs).breaches.filter((b) => b.source.kind !== "federal");
  if (judged.length === 0) return;
  const fix = fixOf(window, startMs, endMs, schedule.timezone);
  const course =
    endMs > startMs
      ? `sends from ${localText(startMs, schedule.timezone)} to ${localText(endMs, schedule.timezone)} (as forecast)`
      : `starts at ${localText(startMs, schedule.timezone)}${schedule.at === "now" ? " (at: now, by the plan's clock)" : ""}`;
  const reach = `its recipients' zones: ${window.zones.join(", ")}`;
  for (const breach of judged)
    violation(
      breach.source.kind === "state" ? "jurisdictions" : "send_window",
      ["schedule", "at"],
      `${course}; from ${localText(breach.fromMs, breach.zone)} in ${breach.zone} it is outside ${sourceText(breach.source)} (${reach})`,
      fix.hint,
      fix.fixes,
    );
}

/** The starts that keep the whole send inside, in words and as the quick fix to the latest. */
function fixOf(
  window: SendRules,
  startMs: number,
  endMs: number,
  zone: string,
): { readonly hint: string; readonly fixes: readonly DiagnosticFix[] } {
  const duration = Math.max(0, endMs - startMs);
  const fits = startsThatFit(window, startMs, duration, zone);
  const length = duration === 0 ? "the send" : `the send (about ${Math.ceil(duration / 60_000)} min)`;
  if (fits === null)
    return {
      hint: `no start that day keeps ${length} inside every rule in every zone (${window.zones.join(", ")}): split the list into smaller sends, or send on another day`,
      fixes: [],
    };
  const latest = startText(fits.latestMs, zone);
  const earliest = startText(fits.earliestMs, zone);
  return {
    hint: `start between ${earliest.clock} and ${latest.clock} that day so that ${length} stays inside every rule in every zone (${window.zones.join(", ")}); the latest start that fits is at: "${latest.iso}"`,
    fixes: [
      {
        title: `Start at ${latest.clock}, the latest start that fits`,
        edit: "replace-value",
        text: latest.iso,
      },
    ],
  };
}

/**
 * `require_places`: every contact list a scheduled project sends to is declared under the policy's
 * `places`, at the list's reference. Offline, a file that writes no `organization:` cannot be
 * matched and is judged by `plan` (which knows the live organization).
 */
export function judgeRequirePlaces(
  policy: Policy,
  project: ProjectSpec,
  facts: SendFacts,
  violation: Violation,
): void {
  if (
    policy.rules.require_places !== true ||
    !sendingOf(project, facts.completed === true).toLists ||
    facts.organization.length === 0
  )
    return;
  listPlaces(policy, facts).forEach((places, i) => {
    if (places !== null) return;
    const list = project.contactLists?.[i] ?? facts.lists[i]?.[0] ?? "?";
    violation(
      "require_places",
      ["contact_lists", i],
      `contact list ${JSON.stringify(list)} of organization ${JSON.stringify(facts.organization[0])} has no declared places, which the policy requires for every list a send uses: its recipients' quiet hours cannot be judged where they live`,
      `declare where its recipients live in the policy file: places: {${JSON.stringify(facts.organization[0])}: {${JSON.stringify(list)}: {states: [FL]}}} (states, IANA zones, or both; docs/places.md)`,
    );
  });
}
