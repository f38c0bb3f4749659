/**
 * The connection a command talks to the API through, shared by `plan` and `apply`: the client (one
 * `RateLimiter` per process, shared by every request), the base URL, and, with `--sandbox`, the
 * embedded emulator. Problems (no key, insecure URL, sandbox that cannot start) are Diagnostics.
 *
 * Without `--sandbox`: the key comes from `CAMPAIGNCTL_API_KEY` (or the variable `--api-key-env`
 * names), the base URL from `--base-url`, else `CAMPAIGNCTL_BASE_URL`, else production; plain http
 * is refused except to loopback.
 *
 * With `--sandbox`: the sandbox starts in-process on a free loopback port with the package's example
 * fixture (`examples/sandbox.yaml`), its state persisted under `.campaignctl/sandbox/state.json`
 * (relative to the working directory, so `plan --sandbox`, `apply --sandbox`, `plan --sandbox` see
 * a world that moves), test sends approved at once (there is no dashboard to approve them in), its
 * virtual clock running at real speed (time scale 1). The key is the fixture's first read-write key
 * of its root organization; nothing is read from the environment. The client's rate limiter keeps
 * the system clock (it runs at the sandbox's speed); `Session.now()` is the sandbox's virtual time,
 * the time the world it reads lives in.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  API_KEY_ENV,
  type ApiClient,
  type ApiEventListener,
  type Clock,
  createApiClient,
  resolveApiKey,
  resolveBaseUrl,
  type Sleep,
} from "../src/api/index.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { formatProblem, openSandbox, type SandboxHandle, type SandboxOptions } from "../src/sandbox/index.js";
import type { Io } from "./io.js";
import { VERSION } from "./version.js";

/** Where `--sandbox` keeps the embedded sandbox's world, relative to the working directory. */
export const SANDBOX_STATE_PATH = ".campaignctl/sandbox/state.json";

/** The connection flags `plan` and `apply` share. */
export interface SessionFlags {
  /** Run against the embedded sandbox instead of an API. */
  readonly sandbox?: boolean;
  /** `--base-url`; wins over `CAMPAIGNCTL_BASE_URL`. Ignored with `sandbox`. */
  readonly baseUrl?: string;
  /** `--api-key-env`: the environment variable holding the key (default `CAMPAIGNCTL_API_KEY`). */
  readonly apiKeyEnv?: string;
}

/** Injections for tests and benchmarks; the CLI passes none. */
export interface SessionOptions {
  /** The client's clock (rate limiter, retries). Default: the system clock. */
  readonly clock?: Clock;
  /** The client's sleep. Default: a real timer. */
  readonly sleep?: Sleep;
  /** Overrides of the embedded sandbox's options (fixture, state path, time scale, ...). */
  readonly sandboxOptions?: Partial<SandboxOptions>;
  /** Hears every request, wait and retry of the client (progress display). */
  readonly onEvent?: ApiEventListener;
}

/**
 * An open connection. Invariants: the API key lives only inside `client` (never on this object);
 * `client` is the only client of the process, so its limiter sees every request; `close` is
 * idempotent and closes the client, then the embedded sandbox (flushing its state).
 */
export interface Session {
  readonly client: ApiClient;
  /** The checked base URL (ends in the `/v1` prefix); safe to print and to store in a plan. */
  readonly baseUrl: string;
  /**
   * Where the key came from, for messages: the environment variable's name, or `"the embedded
   * sandbox"`. Never the key itself.
   */
  readonly keySource: string;
  /** The embedded sandbox with `--sandbox`, else null. */
  readonly sandbox: SandboxHandle | null;
  /** The time of the API's world: the sandbox's virtual clock with `--sandbox`, else the client's clock. */
  now(): Date;
  close(): Promise<void>;
}

export type SessionResult =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/** Opens the connection the flags describe. Never throws on user problems. */
export async function openSession(
  flags: SessionFlags,
  io: Io,
  options: SessionOptions = {},
): Promise<SessionResult> {
  const clock = options.clock ?? { now: () => Date.now() };
  const clientFor = (baseUrl: string, apiKey: string): ApiClient =>
    createApiClient({
      baseUrl,
      apiKey,
      clock,
      sleep: options.sleep,
      onEvent: options.onEvent,
      userAgent: `campaignctl/${VERSION}`,
    });

  if (flags.sandbox === true) return openEmbedded(io, options, clientFor);

  const keyEnv = flags.apiKeyEnv ?? API_KEY_ENV;
  const baseUrl = resolveBaseUrl(flags.baseUrl, io.env);
  const key = resolveApiKey(io.env, keyEnv);
  const diagnostics: Diagnostic[] = [];
  if (!baseUrl.ok) diagnostics.push(baseUrl.diagnostic);
  if (!key.ok) diagnostics.push(key.diagnostic);
  if (!baseUrl.ok || !key.ok) return { ok: false, diagnostics };
  const client = clientFor(baseUrl.value, key.value);
  let closed: Promise<void> | undefined;
  return {
    ok: true,
    session: {
      client,
      baseUrl: baseUrl.value,
      keySource: keyEnv,
      sandbox: null,
      now: () => new Date(clock.now()),
      close: () => {
        closed ??= client.close();
        return closed;
      },
    },
  };
}

async function openEmbedded(
  io: Io,
  options: SessionOptions,
  clientFor: (baseUrl: string, apiKey: string) => ApiClient,
): Promise<SessionResult> {
  const statePath = options.sandboxOptions?.statePath ?? resolve(io.cwd, SANDBOX_STATE_PATH);
  try {
    mkdirSync(dirname(statePath), { recursive: true });
  } catch (error) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "cli.file-unreadable",
          message: `cannot create ${dirname(statePath)} for the embedded sandbox's state (${errorCode(error)})`,
          hint: "run from a writable directory",
        },
      ],
    };
  }
  const started = await openSandbox({
    host: "127.0.0.1",
    port: 0,
    timeScale: 1,
    autoApproveTests: true,
    ...options.sandboxOptions,
    statePath,
  });
  if (!started.ok) {
    return {
      ok: false,
      diagnostics: started.problems.map((p) => ({
        severity: "error",
        code: "cli.file-unreadable",
        message: `the embedded sandbox did not start: ${formatProblem(p)}`,
        hint: `delete ${SANDBOX_STATE_PATH} to start the sandbox afresh from its fixture`,
      })),
    };
  }
  const handle = started.handle;
  const key = sandboxKey(handle);
  if (key === undefined) {
    await handle.close();
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "api.no-key",
          message: "the embedded sandbox's fixture has no usable read-write key of its root organization",
          hint: "give the fixture an api_keys entry of type read-write for the root organization",
        },
      ],
    };
  }
  const client = clientFor(handle.baseUrl, key);
  let closed: Promise<void> | undefined;
  return {
    ok: true,
    session: {
      client,
      baseUrl: handle.baseUrl,
      keySource: "the embedded sandbox",
      sandbox: handle,
      now: () => handle.clock.now(),
      close: () => {
        closed ??= client.close().then(() => handle.close());
        return closed;
      },
    },
  };
}

/** The first usable read-write key of a root organization (one without a parent), in fixture order. */
function sandboxKey(handle: SandboxHandle): string | undefined {
  const orgs = handle.store.world.organizations;
  const usable = handle.keys.filter((k) => k.type === "read-write" && !k.revoked);
  const root = usable.find((k) => orgs[k.organization_id]?.parent_id === null);
  return (root ?? usable[0])?.key;
}

function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : "unknown error";
}
