/**
 * `--allow-cross-organization-key` of `plan`, `apply`, `replies plan` and `replies run`, declared
 * once. By default a key whose organization is not the owner's sends no write there (test, schedule,
 * reply, email list upsert: the rule of src/api/cross-organization.ts, enforced at the write port);
 * the API scopes idempotency keys per calling organization, so a run with the parent's key and one
 * with the child's would both send. The flag allows it, for teams that run one key on purpose (see
 * docs/api-connection.md). A pause needs no flag.
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
    "let a key of another organization than the owner's write there: tests, schedules, replies, email list upserts (every pipeline that writes there must then use this same key)",
  );
}
