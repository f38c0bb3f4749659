/**
 * Runs `campaignctl status` in-process against a sandbox (real HTTP on loopback, rate limits on,
 * the virtual clock frozen between moves): the command function with a captured terminal (the
 * registration is not wired into the program yet), the flags commander would give, and every
 * JSON document checked against its schema as the CLI helpers do.
 */
import { type StatusFlags, statusCommand } from "../../cli/commands/status.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { type CliResult, captureIo } from "../helpers/run-cli.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";

/**
 * `campaignctl status ARGS` in `cwd`. `argv` is the command line after `status`, for the document
 * check; `paths` and `flags` are what commander would make of it.
 */
export async function runStatus(
  sb: SandboxHandle,
  cwd: string,
  argv: readonly string[],
  paths: readonly string[],
  flags: Partial<StatusFlags> = {},
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  const io = captureIo({
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY, ...env },
    cwd,
    clock: () => sb.clock.nowMs(),
  });
  const outcome = await statusCommand(paths, { baseUrl: sb.baseUrl, ...flags }, io, {
    clock: { now: () => sb.clock.nowMs() },
    sleep: async (ms) => sb.clock.advance(ms),
  });
  const result = { code: exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
  checkCliDocuments(["status", ...argv], result.stdout, cwd);
  return result;
}

/** Requests per route (`GET /projects/stats`) since the log was last cleared. */
export async function requestCounts(sb: SandboxHandle): Promise<Record<string, number>> {
  return (await admin(sb, "GET", "/requests")).body.data.counts.per_route;
}

export async function clearRequests(sb: SandboxHandle): Promise<void> {
  await admin(sb, "DELETE", "/requests");
}

/** A project's raw record in the sandbox (counters included). */
export interface RawProject {
  readonly project_id: string;
  readonly organization_id: string;
  readonly status: string;
  readonly total_recipients: number;
  readonly estimated_cost_cents: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly counters: {
    readonly messages_sent: number;
    readonly messages_delivered: number;
    readonly messages_failed: number;
    readonly messages_opted_out: number;
    readonly replies_received: number;
    readonly total_url_clicks: number;
    readonly actual_cost_e4: number;
  };
}

export async function rawProject(sb: SandboxHandle, id: string): Promise<RawProject> {
  const r = await admin(sb, "GET", `/projects/${id}`);
  if (r.status !== 200) throw new Error(`GET /_sandbox/projects/${id}: ${r.status}`);
  return r.body.data as RawProject;
}

/**
 * Every project's raw record, by id, as `GET /_sandbox/projects/{id}` answers it (its JSON), read
 * from the handle's world in one go: the status world holds over a thousand projects, and a
 * request for each cost more than the status runs that are the test.
 */
export function rawProjects(sb: SandboxHandle): Map<string, RawProject> {
  const projects = JSON.parse(JSON.stringify(sb.store.world.projects)) as Record<string, RawProject>;
  return new Map(Object.entries(projects));
}
