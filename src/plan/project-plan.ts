/**
 * The plan of one project, before ordering between projects: read, resolve, diff, choose actions,
 * check preconditions, then decide each action's status. Pure.
 *
 * What blocks what (a pause sends nothing, so only doubt about *which* project it is blocks it):
 * - an organization mismatch: every action (the id may name someone else's project);
 * - an unresolved reference: test and schedule (the file does not describe a send we can check);
 * - drift: test and schedule;
 * - a failed precondition: the kinds it names (test and schedule, or schedule only);
 * - excluding a project this one is ordered `after`: test and schedule (a pause waits for nothing).
 */

import {
  CROSS_ORGANIZATION_ALLOWED_HINT,
  CROSS_ORGANIZATION_FLAG,
  type CrossOrganizationVerdict,
  crossOrganizationHint,
  crossOrganizationReason,
  crossOrganizationVerdict,
} from "../api/cross-organization.js";
import { idempotencyKey } from "../api/idempotency-key.js";
import type { ProjectSpec } from "../campaign/model.js";
import { relateToOrigin } from "../campaign/template-origin.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { audienceOf, scheduleOf, sendsToLists } from "./audience.js";
import { combineBlocks } from "./blocks.js";
import type { Catalogs } from "./catalogs.js";
import { DRIFT_FIX, diffProject } from "./drift.js";
import { estimateSend } from "./estimate.js";
import { guardOf } from "./guard.js";
import type { LiveState } from "./live.js";
import { checkPreconditions } from "./preconditions.js";
import { unreadableProject } from "./project-read.js";
import { actionPath } from "./requests.js";
import { resolveReferences } from "./resolve.js";
import { type ActionDraft, chooseActions } from "./transitions.js";
import type { Action, ActionKind, Block, Drift, ProjectPlan } from "./types.js";

export interface ProjectPlanContext {
  readonly live: LiveState;
  readonly catalogs: Catalogs;
  readonly now: Date;
  readonly organizationId: string;
  /**
   * `--allow-cross-organization-key`: a key of another organization than the project's may send
   * (with a warning). By default its test and schedule are blocked: the API deduplicates
   * idempotency keys per calling organization, so two runs with keys of different organizations
   * would both send.
   */
  readonly allowCrossOrganizationKey: boolean;
}

/** Said on a pause of a drifted project. */
export const PAUSE_DESPITE_DRIFT = "pausing is safe even though the project drifted: a pause sends nothing";

export function planProject(
  spec: ProjectSpec,
  context: ProjectPlanContext,
  excludedDependencies: readonly string[],
): ProjectPlan {
  const read = context.live.projects.get(spec.id);
  if (read === undefined) throw new Error(`planProject: live state has no read of project ${spec.id}`);
  const base = { address: spec.address, file: spec.file, project_id: spec.id, desired: spec.state };
  const unreadable = unreadableProject(spec, read);
  if (read.kind !== "found" || unreadable !== undefined) {
    return {
      ...base,
      name: spec.name ?? null,
      live: null,
      drift: [],
      actions: [],
      estimate: null,
      audience: null,
      schedule: scheduleOf(spec, null),
      sends: sendsToLists(spec.state, null),
      guard: guardOf(spec.guard),
      diagnostics: unreadable === undefined ? [] : relateToOrigin(spec, [unreadable]),
      notes: [],
    };
  }
  const project = read.value;
  const resolution = resolveReferences(spec, context.live, context.catalogs, project.organization_id);
  const organization = organizationMismatch(spec, project, resolution.refs.organization?.id);
  const drift = diffProject(spec, project, resolution.refs, context.catalogs);
  const transitions = chooseActions(spec, project, context.now);
  const sendingKinds = new Set<ActionKind>(
    transitions.drafts.map((d) => d.kind).filter((k) => k !== "pause"),
  );
  const preconditions =
    sendingKinds.size === 0
      ? []
      : checkPreconditions(spec, project, context.live, resolution.refs).filter((f) =>
          f.blocks.some((k) => sendingKinds.has(k)),
        );

  const everything: Block[] = [];
  const sendingOnly: Block[] = [];
  const referenceDiagnostics = [
    ...resolution.diagnostics,
    ...(organization === undefined ? [] : [organization]),
  ];
  if (organization !== undefined) everything.push(blockOf(spec, [organization], "check the project id"));
  if (resolution.diagnostics.length > 0)
    sendingOnly.push(blockOf(spec, resolution.diagnostics, "correct the reference"));
  for (const dependency of excludedDependencies)
    sendingOnly.push({
      reason: `it is ordered after ${dependency}, which --exclude removes`,
      fix: `exclude ${spec.address} too, or do not exclude ${dependency}`,
      codes: ["plan.excluded-dependency"],
    });
  const driftBlock = blockOfDrift(drift.drift);
  // The cross-organization rule (src/api/cross-organization.ts): what the write port will refuse.
  const keyOrganization = keyOrganizationOf(spec, context);
  const crossKey = (kind: ActionKind) =>
    crossOrganizationVerdict({
      write: kind,
      keyOrganization,
      ownerOrganization: project.organization_id,
      allowed: context.allowCrossOrganizationKey,
    });
  const crossKeyBlock: Block = {
    reason: `the API key belongs to organization ${keyOrganization}, not the project's own (${project.organization_id}); idempotency keys are not shared across organizations`,
    fix: `apply with a key of the project's own organization, or pass ${CROSS_ORGANIZATION_FLAG}`,
    codes: ["apply.cross-organization-key"],
  };

  const actions = transitions.drafts.map((draft): Action => {
    const blocks = [...(draft.block === undefined ? [] : [draft.block]), ...everything];
    if (draft.kind !== "pause") {
      blocks.push(...sendingOnly);
      if (driftBlock !== undefined) blocks.push(driftBlock);
    }
    for (const failure of preconditions)
      if (failure.blocks.includes(draft.kind))
        blocks.push({
          reason: withoutAddress(spec, failure.diagnostic.message),
          fix: failure.diagnostic.hint ?? "",
          codes: [failure.diagnostic.code],
        });
    const reason =
      draft.kind === "pause" && drift.drift.length > 0
        ? `${draft.reason}; ${PAUSE_DESPITE_DRIFT}`
        : draft.reason;
    if (crossKey(draft.kind) === "refused") blocks.push(crossKeyBlock);
    // Keys are scoped to the project's own organization, the same in every mode of apply.
    return toAction(spec, project, project.organization_id, { ...draft, reason }, combineBlocks(blocks));
  });
  const crossKeyFinding = crossOrganizationKey(spec, project, keyOrganization, actions, crossKey);

  return {
    ...base,
    name: project.name,
    live: { status: project.status, updated_at: project.updated_at },
    drift: drift.drift,
    actions,
    estimate: estimateSend(spec, project),
    audience: audienceOf(project, context.catalogs),
    schedule: scheduleOf(spec, project),
    sends: sendsToLists(spec.state, { status: project.status, updated_at: project.updated_at }),
    guard: guardOf(spec.guard),
    // A template instance's findings also point at its other place (template or instance).
    diagnostics: relateToOrigin(spec, [
      ...referenceDiagnostics,
      ...drift.diagnostics,
      ...transitions.diagnostics,
      ...(crossKeyFinding === undefined ? [] : [crossKeyFinding]),
      ...preconditions.map((f) => f.diagnostic),
    ]),
    notes: [...drift.notes, ...transitions.notes],
  };
}

/** A block's reason is shown under the project already: drop the `address: ` prefix of a message. */
function withoutAddress(spec: ProjectSpec, message: string): string {
  const prefix = `${spec.address}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function blockOf(spec: ProjectSpec, diagnostics: readonly Diagnostic[], defaultFix: string): Block {
  return {
    reason: diagnostics.map((d) => withoutAddress(spec, d.message)).join("; "),
    fix: [...new Set(diagnostics.map((d) => d.hint ?? defaultFix))].join("; "),
    codes: diagnostics.map((d) => d.code),
  };
}

function blockOfDrift(drift: readonly Drift[]): Block | undefined {
  if (drift.length === 0) return undefined;
  return {
    reason: `the live project drifted from the file (${drift.map((d) => d.field).join(", ")}); nothing unreviewed goes out`,
    fix: DRIFT_FIX,
    codes: ["plan.drift"],
  };
}

function toAction(
  spec: ProjectSpec,
  project: Project,
  org: string,
  draft: ActionDraft,
  block: Block | undefined,
): Action {
  const status = block === undefined ? draft.status : "blocked";
  const key =
    status === "deferred"
      ? null
      : idempotencyKey({
          org,
          project_id: project.project_id,
          action: draft.kind,
          body: draft.body,
          based_on: project.updated_at,
        });
  return {
    id: `${spec.address}.${draft.kind}`,
    address: spec.address,
    project_id: project.project_id,
    kind: draft.kind,
    status,
    request: {
      method: "POST",
      path: actionPath(project.project_id, draft.kind),
      body: draft.body,
      idempotency_key: key,
    },
    depends_on: draft.dependsOn.map((k) => `${spec.address}.${k}`),
    before: draft.before,
    after: draft.after,
    reason: draft.reason,
    ...(block === undefined ? {} : { block }),
    ...(status === "deferred" && draft.waitsFor !== undefined ? { waits_for: draft.waitsFor } : {}),
  };
}

/** The organization of the key the project is read and written with (issue 26: a key per organization). */
function keyOrganizationOf(spec: ProjectSpec, context: ProjectPlanContext): string {
  return context.live.keyOrganizations?.get(spec.id) ?? context.organizationId;
}

/**
 * What the cross-organization rule says of the project's actions (`verdict` of each kind), said
 * once: an error when it refuses one, a warning when the flag lets a write through that goes.
 */
function crossOrganizationKey(
  spec: ProjectSpec,
  project: Project,
  keyOrganization: string,
  actions: readonly Action[],
  verdict: (kind: ActionKind) => CrossOrganizationVerdict,
): Diagnostic | undefined {
  const why = crossOrganizationReason(keyOrganization, project.organization_id, "the project");
  if (actions.some((a) => verdict(a.kind) === "refused"))
    return {
      severity: "error",
      code: "apply.cross-organization-key",
      message: `${spec.address}: ${why}: its test and schedule are not sent with this key`,
      hint: crossOrganizationHint(project.organization_id),
    };
  if (!actions.some((a) => a.status !== "blocked" && verdict(a.kind) === "allowed")) return undefined;
  return {
    severity: "warning",
    code: "apply.cross-organization-key",
    message: `${spec.address}: ${why} (allowed by ${CROSS_ORGANIZATION_FLAG})`,
    hint: CROSS_ORGANIZATION_ALLOWED_HINT,
  };
}

function organizationMismatch(
  spec: ProjectSpec,
  project: Project,
  wanted: string | undefined,
): Diagnostic | undefined {
  if (wanted === undefined || wanted === project.organization_id) return undefined;
  return {
    severity: "error",
    code: "plan.organization-mismatch",
    message: `${spec.address}: the live project belongs to organization ${project.organization_id}, the file names ${spec.organization ?? wanted}`,
    range: spec.locate(["organization"]),
    hint: "check the project id, or the file's `organization`",
  };
}
