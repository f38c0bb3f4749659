/**
 * `campaignctl sandbox --json`: what a script needs to use the sandbox it just started, as one JSON
 * document on one line of stdout (read the first line, parse it, go): the URLs, the environment
 * variables `plan`/`apply` read, the fixture's organizations and its API keys.
 *
 * The keys are printed with their values: they are fixture data of a local emulator (the text
 * banner prints them too), not credentials of any real API. Schema: schemas/sandbox-info.schema.json.
 */
import { API_KEY_ENV, BASE_URL_ENV } from "../../src/api/index.js";
import type { SandboxHandle, SandboxKey } from "../../src/sandbox/index.js";

/** Bumped on any breaking change of the document. */
export const SANDBOX_INFO_FORMAT_VERSION = 1;

/** Invariant: `base_url` is `root_url` + `/v1`; `keys[].organization_id` names one of `organizations`. */
export interface SandboxInfo {
  readonly format_version: typeof SANDBOX_INFO_FORMAT_VERSION;
  readonly base_url: string;
  readonly root_url: string;
  /** `export CAMPAIGNCTL_BASE_URL=<base_url>` and `CAMPAIGNCTL_API_KEY=<a key>` point plan/apply here. */
  readonly env: { readonly base_url: string; readonly api_key: string };
  readonly fixture: string | null;
  readonly state: string | null;
  readonly clock: { readonly now: string; readonly time_scale: number };
  readonly rate_limits: boolean;
  readonly faults: string | null;
  readonly organizations: readonly {
    readonly id: string;
    readonly name: string;
    readonly parent_id: string | null;
  }[];
  readonly keys: readonly SandboxKey[];
}

/** The flags the document reports, as the user gave them. */
export interface SandboxInfoFlags {
  readonly fixture?: string;
  readonly state?: string;
  readonly timeScale: number;
  readonly rateLimits: boolean;
  readonly faults?: string;
}

export function sandboxInfo(sb: SandboxHandle, flags: SandboxInfoFlags): SandboxInfo {
  return {
    format_version: SANDBOX_INFO_FORMAT_VERSION,
    base_url: sb.baseUrl,
    root_url: sb.rootUrl,
    env: { base_url: BASE_URL_ENV, api_key: API_KEY_ENV },
    fixture: flags.fixture ?? null,
    state: flags.state ?? null,
    clock: { now: sb.clock.now().toISOString(), time_scale: flags.timeScale },
    rate_limits: flags.rateLimits,
    faults: flags.faults ?? null,
    organizations: Object.values(sb.store.world.organizations).map((o) => ({
      id: o.id,
      name: o.name,
      parent_id: o.parent_id,
    })),
    keys: sb.keys,
  };
}

/** One line: a reader of a long-running process's stdout can take the first line as the document. */
export function renderSandboxInfo(info: SandboxInfo): string {
  return `${JSON.stringify(info)}\n`;
}
