/**
 * `--allow-cross-organization-key` of plan and apply, declared once. By default a key whose
 * organization is not the project's own sends no test or schedule for it (the API scopes
 * idempotency keys per calling organization, so a run with the parent's key and one with the
 * child's would both send); the flag allows it, with a warning, for teams that run one key on
 * purpose (see docs/apply-and-safety.md).
 */
import type { Command } from "commander";

/** The flag as commander parses it. */
export interface KeyScopeFlags {
  readonly allowCrossOrganizationKey?: boolean;
}

/** Adds `--allow-cross-organization-key` to `command` and returns it for chaining. */
export function addKeyScopeOption(command: Command): Command {
  return command.option(
    "--allow-cross-organization-key",
    "let a key of another organization than a project's own send its test and schedule (every pipeline of that project must then use this same key)",
  );
}
