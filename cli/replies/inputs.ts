/**
 * What `replies plan` and `replies run` read before they connect: the campaign files (their errors
 * end the command), the policies above them (their `replies` rule may add revocation words) and
 * the projects with reply rules (none: nothing to do).
 */
import type { Campaign } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { revocationWords } from "../../src/message/reply-words.js";
import type { ReplyProject } from "../../src/replies/port.js";
import { replyProjects } from "../../src/replies/projects.js";
import { noRules } from "../../src/replies/run-checks.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { loadPolicy } from "../adapters/policy-file.js";
import type { Io } from "../output/io.js";

export interface ReplyInputs {
  readonly ok: true;
  /** Each loaded file's text by path, for excerpts. */
  readonly sources: ReadonlyMap<string, string>;
  readonly campaign: Campaign;
  readonly projects: readonly ReplyProject[];
  readonly revocation: ReturnType<typeof revocationWords>;
}

export type ReplyInputsRefused = {
  readonly ok: false;
  readonly diagnostics: readonly Diagnostic[];
  readonly sources: ReadonlyMap<string, string>;
};

export function readReplyInputs(paths: readonly string[], io: Io): ReplyInputs | ReplyInputsRefused {
  const loaded = loadCampaign(paths.length === 0 ? ["."] : paths, io.cwd);
  const sources = new Map(loaded.campaign.files.map((f) => [f.path, f.text]));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return { ok: false, diagnostics: errors, sources };
  const files = loaded.campaign.files.map((f) => f.path);
  const policy = loadPolicy({}, files, io.cwd);
  if (!policy.ok) return { ok: false, diagnostics: policy.diagnostics, sources };
  const projects = replyProjects(loaded.campaign.projects);
  if (projects.length === 0) return { ok: false, diagnostics: [noRules(paths)], sources };
  return {
    ok: true,
    sources,
    campaign: loaded.campaign,
    projects,
    revocation: revocationWords(policy.policy?.rules.replies?.opt_out_words),
  };
}
