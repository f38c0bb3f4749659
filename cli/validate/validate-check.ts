/**
 * `validate`'s check of one file: the campaign's own checks (src/campaign/file-check.ts) with the
 * policy's check of each project added, as design.md "Layout" wants it (campaign files know no
 * policy; the validate and plan pipelines call it). Offline, a policy judges with no clock and no
 * cost estimate. Pure wiring, shared by this thread and the worker threads (validate-worker.ts).
 */
import type { FileAssembly } from "../../src/campaign/assemble.js";
import {
  checkFileAlone,
  checkFileInPlace,
  checkLoneFile,
  type FileCheck,
  type FileCheckJob,
  type LoneFileCheck,
  type ProjectCheck,
} from "../../src/campaign/file-check.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import { capacityLoosened } from "../../src/policy/capacity.js";
import type { Policy } from "../../src/policy/model.js";
import { POLICY_FINDING_READS, policyViolations } from "../../src/policy/rules.js";

/** What validate's file check needs besides the file; plain data, so it crosses to a worker thread. */
export interface ValidateJob extends FileCheckJob {
  readonly policy: Policy | null;
}

/** The policy's check of each project, or undefined when the run has no policy. */
function policyCheck(job: ValidateJob): ProjectCheck | undefined {
  const policy = job.policy;
  if (policy === null) return undefined;
  // A file's capacity is shared by its projects: judged against the policy's once, at the first.
  const judged = new WeakSet<object>();
  const check: ProjectCheck = (project) => {
    const violations = policyViolations(policy, project, { now: null, estimatedCostCents: null });
    const capacity = project.capacity;
    if (capacity === undefined || judged.has(capacity)) return violations;
    judged.add(capacity);
    return [...violations, ...capacityLoosened(policy, [capacity])];
  };
  return Object.assign(check, {
    reads: { ...POLICY_FINDING_READS, "policy.capacity-loosened": ["capacity"] },
  });
}

/**
 * The job with the policy's opt-out wording (for the lint and the template variants' check) and its
 * places (where lists' recipients live: the lint's quiet hours are judged in their zones).
 */
function withWording(job: ValidateJob): ValidateJob {
  const wording = job.policy?.rules.opt_out_wording;
  const places = job.policy?.places ?? [];
  return {
    ...job,
    ...(wording === undefined ? {} : { optOutWording: wording }),
    ...(places.length === 0 ? {} : { places }),
  };
}

/** `checkFileInPlace` with the policy's check (see src/campaign/file-check.ts). */
export function validateFileInPlace(file: CampaignFile, job: ValidateJob): FileAssembly {
  return checkFileInPlace(file, withWording(job), policyCheck(job));
}

/** `checkFileAlone` with the policy's check: the file's own findings as plain data. */
export function validateFileAlone(file: CampaignFile, job: ValidateJob): FileCheck {
  return checkFileAlone(file, withWording(job), policyCheck(job));
}

/** `checkLoneFile` with the policy's check: the run's only file, checked whole. */
export function validateLoneFile(file: CampaignFile, job: ValidateJob): LoneFileCheck {
  return checkLoneFile(file, withWording(job), policyCheck(job));
}
