/**
 * Is a saved plan still the plan of the world? Pure comparisons for `apply PLANFILE`; the command
 * reads the disk and the API and hands the facts in. Any difference refuses the whole plan: the
 * reviewed plan is exactly what goes out, or nothing goes out.
 */
import { sameInstant } from "../contract/instant.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveBasis, Plan, PlanFile, ProjectPlan } from "../plan/types.js";
import { LOOSEN_FLAG } from "../policy/combine.js";
import type { Loosening } from "../policy/model.js";

/** What reading one input file of a plan found now: its sha256, or that it is missing or unreadable. */
export type FileNow =
  | { readonly kind: "found"; readonly sha256: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly message: string };

/** What re-reading one project found now. `message` never contains the API key. */
export type ProjectNow =
  | { readonly kind: "found"; readonly live: LiveBasis }
  | { readonly kind: "unreadable"; readonly code: string; readonly message: string };

/** Projects whose live state the plan depends on: those with at least one planned action. */
function affectedProjects(plan: Plan): readonly ProjectPlan[] {
  return plan.projects.filter((p) => p.live !== null && p.actions.some((a) => a.status === "planned"));
}

/**
 * The one staleness check of a saved plan's inputs, before any request: every file it lists
 * (campaign files, policy files, each email list's CSV alike) against its bytes now, by sha256.
 * One diagnostic per file changed (`apply.files-changed`), gone or unreadable (`apply.file-missing`);
 * any of them refuses the whole plan. `now` is keyed by the path as the plan records it.
 */
export function compareFiles(
  plan: Plan,
  now: ReadonlyMap<string, FileNow>,
  planFile: string,
): readonly Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
  const lists = new Map((plan.email?.lists ?? []).map((l) => [l.csv, l.address]));
  for (const file of plan.files) {
    const found = now.get(file.path) ?? { kind: "missing" };
    const what = describeInput(file, lists);
    switch (found.kind) {
      case "found":
        if (found.sha256 !== file.sha256)
          out.push({
            severity: "error",
            code: "apply.files-changed",
            message: `${what} changed since the plan was made (sha256 ${short(file.sha256)} in the plan, ${short(found.sha256)} now)`,
            hint,
          });
        break;
      case "missing":
        out.push({
          severity: "error",
          code: "apply.file-missing",
          message: `${what}, ${readWhen(file)}, is missing`,
          hint,
        });
        break;
      case "unreadable":
        out.push({
          severity: "error",
          code: "apply.file-missing",
          message: `${what}, ${readWhen(file)}, cannot be read (${found.message})`,
          hint,
        });
        break;
    }
  }
  return out;
}

/**
 * The inputs of the plan made again now against the saved plan's: the same files, by path and kind,
 * with the same sha256. The remake discovers policy files anew (every `campaignctl.policy.yaml`
 * above the campaign files, `--policy`), so a policy file the saved plan was not made with (a
 * nearer one added since, which may loosen a rule, `require_approvals` included) or one it was made
 * with that no longer applies would change the rules the plan is judged and approved by without
 * changing its actions: each such file refuses the whole plan (`apply.files-changed`). A file read
 * again with other bytes (edited between the first check and the remake) is refused the same way.
 */
export function compareInputs(reviewed: Plan, fresh: Plan, planFile: string): readonly Diagnostic[] {
  const hint = `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
  const lists = new Map((reviewed.email?.lists ?? []).map((l) => [l.csv, l.address]));
  const key = (f: PlanFile) => `${f.kind} ${f.path}`;
  const saved = new Map(reviewed.files.map((f) => [key(f), f]));
  const now = new Map(fresh.files.map((f) => [key(f), f]));
  const out: Diagnostic[] = [];
  const changed = (message: string): void => {
    out.push({ severity: "error", code: "apply.files-changed", message, hint });
  };
  for (const f of fresh.files) {
    const was = saved.get(key(f));
    const what = describeInput(f, lists);
    if (was === undefined)
      changed(`${what} applies now, but the saved plan was not made with it (${ADDED[f.kind]})`);
    else if (was.sha256 !== f.sha256)
      changed(
        `${what} changed since the plan was made (sha256 ${short(was.sha256)} in the plan, ${short(f.sha256)} now)`,
      );
  }
  for (const f of reviewed.files)
    if (!now.has(key(f)))
      changed(
        `${describeInput(f, lists)}, ${readWhen(f)}, does not apply now (the plan made again does not read it)`,
      );
  return out;
}

/**
 * The policy the plan made again is judged by against the saved plan's: the same loosenings (a
 * `--loosen-policy` given now and not when the plan was made, or the reverse; the policy files
 * themselves are `compareInputs`'s, by sha256). A saved plan is applied under exactly the policy it was made and reviewed with (as
 * Terraform refuses variables given with a saved plan): a loosening typed at apply time would
 * otherwise switch a rule off, `require_approvals` included, for a plan reviewed under it. Each
 * difference refuses the whole plan (`apply.policy-changed`).
 */
export function comparePolicy(reviewed: Plan, fresh: Plan, planFile: string): readonly Diagnostic[] {
  const hint = `apply the saved plan as it was made (the same --policy and --loosen-policy), or make it again with what you want (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
  // By rule: what it is loosened from and to follows from the policy files, held to the plan's.
  const key = (l: Loosening) => l.rule;
  // The flag's loosenings: a file's are its bytes, which compareInputs holds to the plan's.
  const flagged = (p: Plan) => (p.policy?.loosened ?? []).filter((l) => l.by === LOOSEN_FLAG);
  const was = new Set(flagged(reviewed).map(key));
  const now = new Set(flagged(fresh).map(key));
  const out: Diagnostic[] = [];
  const changed = (message: string): void => {
    out.push({ severity: "error", code: "apply.policy-changed", message, hint });
  };
  for (const l of flagged(fresh))
    if (!was.has(key(l)))
      changed(`${l.rule} is loosened by ${l.by} now, but the saved plan was made without that loosening`);
  for (const l of flagged(reviewed))
    if (!now.has(key(l)))
      changed(`${l.rule} was loosened by ${l.by} when the saved plan was made, but is not now`);
  return out;
}

/** How an input the saved plan does not list can come to be read now, by kind. */
const ADDED: Readonly<Record<PlanFile["kind"], string>> = {
  campaign: "a campaign file added since",
  policy: "a policy file added since, or passed with --policy",
  csv: "a CSV named since",
};

/** How a message names a plan input: the path, and for a CSV the list it fills. */
function describeInput(file: PlanFile, lists: ReadonlyMap<string, string>): string {
  switch (file.kind) {
    case "campaign":
      return file.path;
    case "policy":
      return `the policy file ${file.path}`;
    case "csv": {
      const list = lists.get(file.path);
      return list === undefined ? `the CSV ${file.path}` : `email list ${list}: its CSV ${file.path}`;
    }
  }
}

function readWhen(file: PlanFile): string {
  return file.kind === "campaign" ? "from which the plan was made" : "read when the plan was made";
}

/**
 * How an affected project's live state moved since the plan: null when its status and `updated_at`
 * are as the plan read them (`updated_at` as an instant, {@link sameInstant}: an unreadable value is
 * a change); else a diagnostic (`apply.project-unreadable` or `apply.plan-stale`) that shows the
 * values as the API wrote them.
 */
function liveMoved(project: ProjectPlan, found: ProjectNow | undefined, hint: string): Diagnostic | null {
  const basis = project.live;
  if (basis === null) return null;
  if (found === undefined || found.kind === "unreadable")
    return {
      severity: "error",
      code: "apply.project-unreadable",
      message: `${project.address}: project ${project.project_id} could not be re-read (${found === undefined ? "not read" : `${found.code}: ${found.message}`}), so the plan cannot be checked against it`,
      hint: "check the connection and the key, then apply the plan again",
    };
  const changes: string[] = [];
  if (found.live.status !== basis.status) changes.push(`status ${basis.status} -> ${found.live.status}`);
  if (!sameInstant(found.live.updated_at, basis.updated_at))
    changes.push(`updated_at ${basis.updated_at} -> ${found.live.updated_at}`);
  if (changes.length === 0) return null;
  return {
    severity: "error",
    code: "apply.plan-stale",
    message: `${project.address}: the live project changed since the plan was made (${changes.join(", ")})`,
    hint,
  };
}

/** One diagnostic per affected project whose live status or `updated_at` moved, or that cannot be read. */
export function compareLive(
  plan: Plan,
  now: ReadonlyMap<string, ProjectNow>,
  planFile: string,
): readonly Diagnostic[] {
  return staleProjects(plan, now, planFile).map((s) => s.diagnostic);
}

/** The affected projects whose live state moved (or cannot be read), each with its diagnostic, in plan order. */
export function staleProjects(
  plan: Plan,
  now: ReadonlyMap<string, ProjectNow>,
  planFile: string,
): readonly { readonly project: ProjectPlan; readonly diagnostic: Diagnostic }[] {
  const hint = `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review what changed, and apply that`;
  return affectedProjects(plan).flatMap((project) => {
    const diagnostic = liveMoved(project, now.get(project.project_id), hint);
    return diagnostic === null ? [] : [{ project, diagnostic }];
  });
}

/**
 * The plan was made against another API than this run talks to. `baseUrl` is what a plan made now
 * would record (the embedded sandbox's identity with `--sandbox`, one per fixture). Checked before
 * any request.
 */
export function compareBaseUrl(plan: Plan, baseUrl: string): readonly Diagnostic[] {
  const norm = (u: string) => u.replace(/\/+$/, "");
  if (norm(plan.base_url) === norm(baseUrl)) return [];
  return [
    {
      severity: "error",
      code: "apply.base-url-mismatch",
      message: `the plan was made against ${plan.base_url}, this apply talks to ${baseUrl}`,
      hint: "apply with the connection the plan was made with (the same --base-url, or --sandbox with the same --fixture), or make the plan again",
    },
  ];
}

/**
 * A saved plan must name the campaign files it was made from, and every project in it must come
 * from one of them: the plan is re-derived from those files, so without them nothing can be checked.
 */
export function checkPlanSources(plan: Plan, planFile: string): readonly Diagnostic[] {
  const hint = `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
  const campaignFiles = plan.files.filter((f) => f.kind === "campaign");
  if (campaignFiles.length === 0)
    return [
      {
        severity: "error",
        code: "apply.plan-no-files",
        message: `${planFile} names no campaign files, so it cannot be re-derived and checked before anything is sent`,
        hint,
      },
    ];
  const files = new Set(campaignFiles.map((f) => f.path));
  return plan.projects
    .filter((p) => !files.has(p.file))
    .map((p) => ({
      severity: "error",
      code: "apply.plan-no-files",
      message: `${planFile}: project ${p.address} comes from ${p.file}, which is not among the plan's files`,
      hint,
    }));
}

/**
 * The key of this apply must see the organization the plan was made for (`GET /organizations`
 * lists what the key can see). A plan that does not say its organization cannot be checked.
 */
export function compareScope(
  plan: Plan,
  visible: readonly string[],
  keySource: string,
): readonly Diagnostic[] {
  if (plan.organization_id !== undefined && visible.includes(plan.organization_id)) return [];
  return [
    {
      severity: "error",
      code: "apply.key-scope",
      message:
        plan.organization_id === undefined
          ? "the saved plan does not say which organization it was made for, so the key's scope cannot be checked"
          : `the saved plan was made for organization ${plan.organization_id}; the key in ${keySource} sees ${visible.length === 0 ? "no organization" : visible.join(", ")}`,
      hint: "apply with a key of the organization the plan was made with, or plan again with this key",
    },
  ];
}

/** A sha256 as messages show it: its first 12 hex digits. */
export function short(sha: string): string {
  return sha.slice(0, 12);
}
