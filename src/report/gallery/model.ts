/**
 * The gallery model: what `preview --html` shows, built from the campaign (and, when the command
 * had a connection or a saved plan, the plan): an overview of the sends, the forecast's timeline
 * when the plan carries a forecast, then each project. Pure: data in, a serialisable model out; the HTML
 * renderer (`page.ts`) only formats it.
 *
 * Each case is one rendering of `previewProject` (test contacts with their `merge_values`, sampled
 * test contacts, `--contact` values, a contact with no values), cut into pieces that say where their
 * text came from (literal text, a merge tag and its value's source, the opt-out footer) and which
 * characters force UCS-2.
 */

import type { ProjectSpec } from "../../campaign/model.js";
import { OPT_OUT_FOOTER } from "../../contract/limits.js";
import { compareDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ForecastJson } from "../../forecast/json.js";
import { OPT_OUT_FOOTER_SEPARATOR } from "../../message/footer.js";
import { gsm7Septets } from "../../message/gsm7.js";
import { parseMergeTags } from "../../message/merge-tags.js";
import {
  type PreviewContact,
  type PreviewInstance,
  type PreviewReply,
  type PreviewSms,
  previewProject,
} from "../../message/preview.js";
import { render, type ValueSource } from "../../message/render.js";
import { guardOf } from "../../plan/guard.js";
import type { Plan, PlanGuard, PlanPolicy, ProjectPlan } from "../../plan/types.js";
import { describeMedia, type GalleryMedia } from "./media.js";
import { buildOverview, type GalleryOverview, type OverviewForecast } from "./overview.js";
import { describeSchedule, type GallerySchedule } from "./schedule.js";
import { buildTimeline, type Timeline } from "./timeline-model.js";

/** Where a piece of the outgoing text came from. */
export type PieceOrigin =
  | { readonly kind: "literal" }
  | { readonly kind: "tag"; readonly name: string; readonly source: ValueSource }
  | { readonly kind: "footer" };

/** A run of characters: `ucs2` when it is one code point that GSM-7 cannot carry (it forces UCS-2). */
export interface GallerySpan {
  readonly text: string;
  readonly ucs2: boolean;
}

/**
 * A part of the outgoing text with one origin. Invariants: `text` is the concatenation of `spans`;
 * the pieces of a case concatenate to its `text`. A tag that resolved to the empty string is a
 * piece with `text === ""` and no spans (shown as a marker; it sends nothing).
 */
export interface GalleryPiece {
  readonly text: string;
  readonly origin: PieceOrigin;
  readonly spans: readonly GallerySpan[];
}

/** One merge tag of a case, for the table under the phone. */
export interface GalleryTag {
  readonly name: string;
  readonly value: string;
  readonly source: ValueSource;
}

/** One rendering: whose values, the exact outgoing text cut into pieces, and its SMS facts. */
export interface GalleryCase {
  /** Unique within the gallery; usable as an HTML id. */
  readonly id: string;
  readonly contact: PreviewContact;
  readonly text: string;
  readonly pieces: readonly GalleryPiece[];
  readonly tags: readonly GalleryTag[];
  readonly characters: number;
  /** Null for MMS. */
  readonly sms: PreviewSms | null;
}

/**
 * What the plan says about the project.
 * - `not-planned`: the command had no connection (`reason` says how to get one).
 * - `not-covered`: a plan was made but does not cover the project (`--project`/selection).
 * - `planned`: the project's plan.
 */
export type GalleryPlanStatus =
  | { readonly kind: "not-planned"; readonly reason: string }
  | { readonly kind: "not-covered" }
  | {
      readonly kind: "planned";
      readonly plan: ProjectPlan;
      readonly baseUrl: string;
      readonly createdAt: string;
    };

export interface GalleryProject {
  /** Unique within the gallery; usable as an HTML id. */
  readonly id: string;
  readonly address: string;
  readonly name: string | null;
  readonly file: string;
  readonly type: ProjectSpec["type"];
  readonly channel: ProjectSpec["channel"] | null;
  readonly protocol: "SMS" | "MMS";
  /** Who the message comes from in the mock-up: the first phone number, else the organization. */
  readonly sender: string;
  readonly desired: ProjectSpec["state"];
  readonly optOutFooter: string | null;
  readonly media: readonly GalleryMedia[];
  readonly schedule: GallerySchedule | null;
  /** The guard the files declare (`watch` pauses the send at it); null when none. */
  readonly guard: PlanGuard | null;
  /** The lists as the file writes them (names or ids); null when the file names none. */
  readonly fileLists: {
    readonly contact: readonly string[] | null;
    readonly suppression: readonly string[] | null;
  };
  readonly notes: readonly string[];
  /** Present only for a template instance: its template, organization and language. */
  readonly instance?: PreviewInstance;
  /** The files' problems about this project (lint, validation), in file order. */
  readonly problems: readonly Diagnostic[];
  readonly cases: readonly GalleryCase[];
  readonly plan: GalleryPlanStatus;
  /** The project's reply rules in order (`replies:`), each answer checked like a message; empty: none. */
  readonly replies: readonly PreviewReply[];
}

/**
 * Where the gallery's figures come from: a plan (made by this command, or a saved plan read with
 * `--plan`; `source` names the file then), with the policy it was judged by; or none.
 */
export type GalleryPlanInfo =
  | {
      readonly kind: "planned";
      readonly baseUrl: string;
      readonly createdAt: string;
      /** `plan.json` for a saved plan read with `--plan`; null for a plan made by this command. */
      readonly source: string | null;
      readonly policy: PlanPolicy | null;
    }
  | { readonly kind: "not-planned"; readonly reason: string };

export interface GalleryModel {
  readonly title: string;
  readonly plan: GalleryPlanInfo;
  /** What sends when, to how many, for how much: the page opens with it. */
  readonly overview: GalleryOverview;
  /**
   * The forecast's timeline, shown after the overview, when the plan carries a forecast (a saved
   * plan made with `plan --forecast`, or `preview --forecast`); null otherwise.
   */
  readonly timeline: Timeline | null;
  readonly projects: readonly GalleryProject[];
  /** The files' problems not about one project. */
  readonly problems: readonly Diagnostic[];
}

export interface GalleryInput {
  readonly projects: readonly ProjectSpec[];
  /** `--contact` values, if any. */
  readonly commandLineValues?: Readonly<Record<string, string>>;
  /** The plan when the command had a connection, else null. */
  readonly plan: Plan | null;
  /** Shown for each project when `plan` is null. */
  readonly notPlannedReason?: string;
  /** The saved plan file the plan was read from (`--plan`), named on the page. */
  readonly planSource?: string;
  /**
   * The files' diagnostics (load, lint). One whose message starts with `<address>: ` (the form
   * project rules use) is shown with that project, any other at the top.
   */
  readonly diagnostics?: readonly Diagnostic[];
}

/** The default `not-planned` reason. */
export const NOT_PLANNED = "not planned: run with --sandbox or --base-url, or give a saved plan with --plan";

export function buildGalleryModel(input: GalleryInput): GalleryModel {
  const plans = new Map((input.plan?.projects ?? []).map((p) => [p.address, p]));
  const diagnostics = [...(input.diagnostics ?? [])].sort(compareDiagnostics);
  const ownerOf = (d: Diagnostic): string | undefined =>
    input.projects.find((p) => d.message.startsWith(`${p.address}: `))?.address;
  const projects = input.projects.map((spec, index) => {
    const preview = previewProject(
      spec,
      input.commandLineValues !== undefined ? { commandLineValues: input.commandLineValues } : {},
    );
    const id = `project-${index + 1}`;
    const cases = preview.renderings.map(
      (r, caseIndex): GalleryCase => ({
        id: `${id}-case-${caseIndex + 1}`,
        contact: r.contact,
        text: r.text,
        pieces: piecesOf(spec, r.values),
        tags: r.tags,
        characters: r.characters,
        sms: r.sms,
      }),
    );
    const projectPlan = plans.get(spec.address);
    const plan: GalleryPlanStatus =
      input.plan === null
        ? { kind: "not-planned", reason: input.notPlannedReason ?? NOT_PLANNED }
        : projectPlan === undefined
          ? { kind: "not-covered" }
          : {
              kind: "planned",
              plan: projectPlan,
              baseUrl: input.plan.base_url,
              createdAt: input.plan.created_at,
            };
    return {
      id,
      address: spec.address,
      name: spec.name ?? null,
      file: spec.file,
      type: spec.type,
      channel: spec.channel ?? null,
      protocol: preview.protocol,
      sender: spec.phoneNumbers?.[0] ?? spec.organization ?? "(no phone number)",
      desired: spec.state,
      optOutFooter: preview.opt_out_footer,
      media: (spec.media ?? []).map(describeMedia),
      schedule: spec.schedule === undefined ? null : describeSchedule(spec.schedule),
      guard: guardOf(spec.guard),
      fileLists: { contact: spec.contactLists ?? null, suppression: spec.suppressionLists ?? null },
      notes: preview.notes,
      ...(preview.instance === undefined ? {} : { instance: preview.instance }),
      problems: diagnostics.filter((d) => ownerOf(d) === spec.address),
      cases,
      plan,
      replies: preview.replies ?? [],
    };
  });
  const plan = input.plan;
  const notPlanned = input.notPlannedReason ?? NOT_PLANNED;
  const overview = buildOverview(
    input.projects.map((spec, index) => ({
      id: `project-${index + 1}`,
      spec,
      plan: plans.get(spec.address) ?? null,
      notPlanned: plan === null ? "not planned" : "not in the plan",
      forecast: forecastOf(plan?.forecast, spec.address),
    })),
    plan !== null,
  );
  return {
    title: "campaignctl message previews",
    plan:
      plan === null
        ? { kind: "not-planned", reason: notPlanned }
        : {
            kind: "planned",
            baseUrl: plan.base_url,
            createdAt: plan.created_at,
            source: input.planSource ?? null,
            policy: plan.policy,
          },
    overview,
    // The plan's forecast as the judge made it (a saved plan's checked against its schema when read).
    timeline: plan?.forecast === undefined ? null : buildTimeline(plan.forecast),
    projects,
    problems: diagnostics.filter((d) => ownerOf(d) === undefined),
  };
}

/** What the plan's forecast says of a project: sent before the cap, left, the cost of what goes out. */
function forecastOf(forecast: ForecastJson | undefined, address: string): OverviewForecast | null {
  if (forecast === undefined) return null;
  const p = forecast.projects.find((f) => f.address === address);
  if (p === undefined) return null;
  return { sent: p.sent, left: p.pause?.recipients_left ?? 0, costCents: p.projected_cost_cents };
}

/** The outgoing text for `values`, cut by origin, each piece cut by characters that force UCS-2. */
function piecesOf(spec: ProjectSpec, values: Readonly<Record<string, string>>): GalleryPiece[] {
  const rendered = render(parseMergeTags(spec.message ?? ""), values, spec.mergeDefaults);
  const pieces: GalleryPiece[] = rendered.parts.map((part) => ({
    text: part.text,
    origin:
      part.segment.kind === "tag" && part.source !== undefined
        ? { kind: "tag", name: part.segment.name, source: part.source }
        : { kind: "literal" },
    spans: spansOf(part.text),
  }));
  if (spec.optOutFooter === true) {
    const footer = `${OPT_OUT_FOOTER_SEPARATOR}${OPT_OUT_FOOTER}`;
    pieces.push({ text: footer, origin: { kind: "footer" }, spans: spansOf(footer) });
  }
  return pieces;
}

/** Cuts `text` into runs of GSM-7 characters and single code points that force UCS-2. */
export function spansOf(text: string): GallerySpan[] {
  const out: GallerySpan[] = [];
  let run = "";
  for (const char of text) {
    if (gsm7Septets(char) !== undefined) {
      run += char;
      continue;
    }
    if (run !== "") out.push({ text: run, ucs2: false });
    run = "";
    out.push({ text: char, ucs2: true });
  }
  if (run !== "") out.push({ text: run, ucs2: false });
  return out;
}
