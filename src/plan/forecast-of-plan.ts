/**
 * The forecast of a plan: every project the plan leaves scheduled, with the plan's own figures
 * (recipients, segments, estimate, the schedule apply would set or the live one), and every other
 * live send of the same brands (src/plan/live-sends.ts), under the capacity in force, judged at the
 * plan's clock. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import { relateToOrigin } from "../campaign/template-origin.js";
import { SCHEDULE_TIMEZONES, type ScheduleTimezone } from "../contract/limits.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { capDeclared } from "../forecast/capacity.js";
import { forecast } from "../forecast/forecast.js";
import { forecastProjectOf } from "../forecast/from-spec.js";
import type { Capacity, Forecast, ForecastFinding, ForecastProject } from "../forecast/types.js";
import type { JurisdictionRule, StateCode } from "../jurisdictions/index.js";
import { withOptOutFooter } from "../message/footer.js";
import { analyzeSegments } from "../message/segments.js";
import { pacificDayOf } from "../text/pacific-day.js";
import type { SendWindow } from "../text/send-window.js";
import type { LiveRead } from "./live.js";
import type { LiveSend, LiveSends } from "./live-sends.js";
import type { Plan } from "./types.js";

/**
 * The capacity a forecast runs under (src/forecast/capacity.ts combineCapacity: the policy's,
 * tightened by the files, defaults filled in), what combining it said, and the fastest throughput a
 * send may go (the policy's): the cap is judged at that rate too, so a file's slower throughput
 * cannot hide a cap pause.
 */
export interface ForecastCapacity {
  readonly capacity: Capacity;
  readonly fastest: Capacity["throughput"];
  /**
   * The brands (names or ids) whose daily cap the policy declares: under `forecast_errors`, the only
   * caps that count as known (a cap only the judged file declares is that file judging itself).
   */
  readonly policyBrands: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** What the judge knows beyond the plan. */
export interface ForecastOfPlanOptions {
  readonly capacity: ForecastCapacity;
  /**
   * The policy has `forecast_errors`: a project whose brand has no daily cap declared by the policy
   * (`capacity.policyBrands`; a campaign file's own declaration does not count) is an error
   * `forecast.capacity-unknown`, never judged at the default cap. `range`: the rule, for `related`.
   */
  readonly capacityRequired?: { readonly range?: SourceRange };
  /** The policy's send window when it has one (else the quiet-hours default). */
  readonly sendWindow?: SendWindow;
  /** The policy forbids `daily_cap_bypass`: no fix offers it. */
  readonly bypassForbidden?: boolean;
  /** The state rules the policy's `jurisdictions` puts in force. */
  readonly stateRules?: readonly JurisdictionRule[];
  /**
   * Where a project's recipients live (its lists' declared places: states and every zone);
   * undefined: in its schedule's zone.
   */
  readonly recipientsOf?: (
    spec: ProjectSpec,
    project: Plan["projects"][number],
  ) => { readonly zones: readonly string[]; readonly states: readonly StateCode[] } | undefined;
  /** The live sends of the brand (what the projects sending have sent, and the others). */
  readonly liveSends: LiveSends;
  /** The live brands' names by id (from the references read), to join a brand's spellings. */
  readonly brandNames?: ReadonlyMap<string, string>;
  /** The plan's project reads, by id: a project's live brand id joins it to the other live sends. */
  readonly projects: ReadonlyMap<string, LiveRead<Project>>;
}

/**
 * Forecasts `plan` for the campaign's `specs`. Projects the plan could not read are left out. A live
 * send no file describes counts only for a brand some project of the plan sends from (by the live
 * brand id); it is marked `external`, so its own course draws no finding.
 */
export function forecastOfPlan(
  plan: Plan,
  specs: readonly ProjectSpec[],
  options: ForecastOfPlanOptions,
): Forecast {
  const nowMs = Date.parse(plan.created_at);
  const byAddress = new Map(specs.map((s) => [s.address, s]));
  const capacity = options.capacity.capacity;
  const projects: ForecastProject[] = [];
  /** Live brand id -> the brand as the files write it (the forecast groups projects by it). */
  const brands = new Map<string, string>();
  for (const p of plan.projects) {
    const spec = byAddress.get(p.address);
    // A project that does not send to its lists (a completed one sends nothing more) takes no share.
    if (spec === undefined || p.estimate === null || !p.sends) continue;
    const scheduledAtMs =
      p.schedule?.utc === null || p.schedule === null ? undefined : Date.parse(p.schedule.utc);
    const read = options.projects.get(p.project_id);
    const planned = forecastProjectOf(
      spec,
      {
        recipients: p.estimate.recipients,
        segmentsPerMessage: p.estimate.segments ?? 1,
        estimatedCostCents: p.estimate.estimated_cost_cents,
        ...(p.audience?.organization?.name === undefined || p.audience.organization.name === null
          ? {}
          : { organization: p.audience.organization.name }),
        ...(scheduledAtMs === undefined || Number.isNaN(scheduledAtMs) ? {} : { scheduledAtMs }),
        ...(p.live?.status === "active"
          ? sentSoFar(
              options.liveSends.sent.get(p.project_id) ?? 0,
              p.estimate.recipients,
              // An upper bound of today's share: at the fastest rate a send may go.
              options.capacity.fastest[spec.channel ?? "10dlc"] / Math.max(1, p.estimate.segments ?? 1),
              scheduledAtMs,
              nowMs,
            )
          : {}),
      },
      nowMs,
    );
    if (planned === undefined) continue;
    const recipients = options.recipientsOf?.(spec, p);
    const project: ForecastProject =
      recipients === undefined
        ? planned
        : { ...planned, recipientZones: recipients.zones, recipientStates: recipients.states };
    if (read?.kind !== "found" || read.value.brand_id === "") {
      projects.push(project);
      continue;
    }
    // The live brand joins the files' spellings of it (its name in one file, its id in another):
    // one brand, one cap, under whichever name or id it is declared.
    const id = read.value.brand_id;
    const name = options.brandNames?.get(id);
    const brand = brands.get(id) ?? project.brand ?? id;
    if (!brands.has(id)) brands.set(id, brand);
    projects.push({
      ...project,
      brand,
      brandNames: [...(project.brandNames ?? []), id, ...(name === undefined ? [] : [name])],
    });
  }
  for (const send of options.liveSends.others) {
    const brand = brands.get(send.project.brand_id);
    if (brand === undefined) continue;
    const project = liveProjectOf(send, brand, options.capacity.fastest, nowMs);
    if (project !== undefined) projects.push(project);
  }
  const input = {
    projects,
    capacity,
    nowMs,
    bypassForbidden: options.bypassForbidden === true,
    ...(options.sendWindow === undefined ? {} : { sendWindow: options.sendWindow }),
    ...(options.stateRules === undefined ? {} : { stateRules: options.stateRules }),
  };
  const judged = forecast(input);
  // A file's slower throughput is the timeline shown, but it cannot hide a cap: the findings at the
  // fastest rate a send may go (the policy's) are findings too.
  const fastest = options.capacity.fastest;
  const slowed = (["10dlc", "toll-free"] as const).filter((c) => fastest[c] !== capacity.throughput[c]);
  const fast = slowed.some((c) => projects.some((p) => (p.channel ?? "10dlc") === c))
    ? forecast({ ...input, capacity: { ...capacity, throughput: fastest } }).findings
    : [];
  const has = new Set(judged.findings.map((f) => `${f.address}\u0000${f.diagnostic.code}`));
  const atFastest = fast
    .filter((f) => !has.has(`${f.address}\u0000${f.diagnostic.code}`))
    .map((f) => ({
      ...f,
      diagnostic: {
        ...f.diagnostic,
        message: `${f.diagnostic.message} (at the fastest throughput a send may go, ${slowed.map((c) => `${c} ${fastest[c]}`).join(", ")} segments a minute; a campaign file's slower throughput cannot hide it)`,
      },
    }));
  const unknown =
    options.capacityRequired === undefined
      ? []
      : capacityUnknown(
          projects.filter((p) => p.external !== true),
          options.capacity.policyBrands,
          options.capacityRequired,
        );
  // A finding on a template instance also points at the other place it came from (template-origin.ts).
  const findings = [...unknown, ...judged.findings, ...atFastest].map((f): ForecastFinding => {
    const spec = byAddress.get(f.address);
    if (spec?.origin === undefined) return f;
    const [related] = relateToOrigin(spec, [f.diagnostic]);
    return related === undefined
      ? f
      : { ...f, diagnostic: { ...f.diagnostic, ...related, code: f.diagnostic.code } };
  });
  return {
    ...judged,
    findings,
    diagnostics: [...options.capacity.diagnostics, ...findings.map((f) => f.diagnostic)],
  };
}

/**
 * Each project whose brand has no daily cap declared by the policy: an error (neither the default
 * cap nor one the judged file declares is judged by).
 */
function capacityUnknown(
  projects: readonly ForecastProject[],
  policyBrands: readonly string[],
  rule: { readonly range?: SourceRange },
): ForecastFinding[] {
  return projects
    .filter(
      (p) =>
        !capDeclared(policyBrands, [...(p.brand === undefined ? [] : [p.brand]), ...(p.brandNames ?? [])]),
    )
    .map((p) => {
      const range = p.ranges?.at ?? p.ranges?.key;
      const brand = p.brandNames?.at(-1) ?? p.brand;
      return {
        address: p.address,
        diagnostic: {
          severity: "error" as const,
          code: "forecast.capacity-unknown" as const,
          message: `${p.address}: the daily cap of brand ${brand === undefined ? "(none)" : `\`${brand}\``} is not declared in the policy, so the policy's forecast_errors cannot judge the send: a cap that is not known is never taken as a pass`,
          ...(range === undefined ? {} : { range }),
          ...(rule.range === undefined
            ? {}
            : { related: [{ message: "the policy's rule forecast_errors", range: rule.range }] }),
          hint: "declare the brand's daily_cap under `capacity.brands` in the policy file (the organization's truth; see docs/policy.md#capacity), or `daily_cap: none` for a brand no carrier caps",
        },
      };
    });
}

/**
 * The forecast's name of a live send no file describes: its name and id, so that a reader finds it
 * in the dashboard (never a file's address: those are keys, and this has none).
 */
export function liveSendAddress(project: Pick<Project, "name" | "project_id">): string {
  return `${project.name} (live ${project.project_id})`;
}

/** A live send as the forecast reads it; undefined when it has no start to count from. */
function liveProjectOf(
  send: LiveSend,
  brand: string,
  throughput: Capacity["throughput"],
  nowMs: number,
): ForecastProject | undefined {
  const p = send.project;
  const scheduledMs = p.scheduled_at === null ? Number.NaN : Date.parse(p.scheduled_at);
  if (p.status === "scheduled" && Number.isNaN(scheduledMs)) return undefined;
  const channel = p.channel === "toll-free" ? "toll-free" : "10dlc";
  const mms = p.media_ids.length > 0 || p.media_urls.length > 0;
  const segments = mms
    ? 1
    : analyzeSegments(withOptOutFooter(p.message_text, p.opt_out_footer_enabled)).segments;
  const recipients = Math.max(0, Math.floor(p.total_recipients));
  const startMs = Number.isNaN(scheduledMs) ? nowMs : scheduledMs;
  const timezone = (SCHEDULE_TIMEZONES as readonly string[]).includes(p.scheduled_timezone ?? "")
    ? (p.scheduled_timezone as ScheduleTimezone)
    : "America/Los_Angeles";
  return {
    address: liveSendAddress(p),
    organization: send.organizationName,
    brand,
    brandNames: [p.brand_id, send.brandName],
    channel,
    recipients,
    segmentsPerMessage: segments,
    startMs,
    timezone,
    dailyCapBypass: p.daily_cap_bypass === true,
    estimatedCostCents: p.estimated_cost_cents,
    external: true,
    ...(p.status === "active"
      ? sentSoFar(
          send.sent,
          recipients,
          throughput[channel] / Math.max(1, segments),
          Number.isNaN(scheduledMs) ? undefined : scheduledMs,
          nowMs,
        )
      : {}),
  };
}

/**
 * A sending project's messages so far, and of them those of the clock's Pacific day (they count
 * against today's cap). The API counts no messages per day: when the send began before today's
 * Pacific midnight, today's share is taken as what its throughput (`perMinute` messages) could have
 * sent since then, at most all it sent (an upper bound, so the cap is never under-counted).
 */
function sentSoFar(
  sent: number,
  recipients: number,
  perMinute: number,
  startMs: number | undefined,
  nowMs: number,
): { readonly sent: number; readonly sentToday: number } {
  const whole = Math.min(Math.max(0, Math.floor(sent)), recipients);
  const midnight = pacificDayOf(nowMs).startMs;
  if (startMs !== undefined && !Number.isNaN(startMs) && startMs >= midnight)
    return { sent: whole, sentToday: whole };
  return { sent: whole, sentToday: Math.min(whole, Math.floor((perMinute * (nowMs - midnight)) / 60_000)) };
}
