/**
 * `validate`'s check of one open document, on the editor's text rather than the file on disk: the
 * same decoding (src/campaign/decode.ts), the same policy discovery from the document's path
 * (../policy-file.ts) and the same pure check (../validate-check.ts, src/campaign/file-check.ts) as
 * `campaignctl validate FILE`. So the findings are validate's for that file as the buffer stands:
 * same codes, ranges, severities and hints. Offline; reads only the policy files above it.
 */
import { basename } from "node:path";
import { decodeCampaignFile } from "../../src/campaign/decode.js";
import { combineFileChecks } from "../../src/campaign/file-check.js";
import { isPolicyFileName } from "../../src/campaign/policy-file-name.js";
import { mayBeCampaignFile } from "../../src/campaign/schema-modeline.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { loadPolicy, type PolicyFlags } from "../policy-file.js";
import { type ValidateJob, validateLoneFile } from "../validate-check.js";

/** What a document's check needs besides its text. */
export interface DocumentCheckContext {
  readonly flags: PolicyFlags;
  readonly cwd: string;
  /** The instant past schedules are judged against (`--now`, else the clock at each check). */
  readonly now: Date;
  /** Set when `--now` gave the instant (named in the past-schedule finding, as validate does). */
  readonly clock?: string;
}

/**
 * Validate's diagnostics for the document at `path` (absolute) holding `text`, sorted as validate
 * sorts them. A policy file, or a YAML file whose modeline declares another schema, is not a
 * campaign file: nothing is reported for it.
 */
export function checkDocument(path: string, text: string, context: DocumentCheckContext): Diagnostic[] {
  if (isPolicyFileName(basename(path)) || !mayBeCampaignFile(text)) return [];
  const decoded = decodeCampaignFile(path, Buffer.from(text, "utf8"));
  const policy = loadPolicy(context.flags, [path], context.cwd);
  const job: ValidateJob = {
    now: context.now.getTime(),
    ...(context.clock === undefined ? {} : { clock: context.clock }),
    policy: policy.ok ? policy.policy : null,
  };
  const checked =
    decoded.file === undefined
      ? []
      : combineFileChecks([validateLoneFile(decoded.file, job)], job).diagnostics;
  return [...decoded.diagnostics, ...checked, ...policy.diagnostics].sort(compareDiagnostics);
}
