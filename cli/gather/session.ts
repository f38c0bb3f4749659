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
 * fixture (`examples/sandbox.yaml`, or the file `--fixture` names), its state persisted under
 * `.campaignctl/sandbox/state.json` (with `--fixture`: `.campaignctl/sandbox/<name>-<hash>/state.json`,
 * one world per fixture file; relative to the working directory, so `plan --sandbox`, `apply
 * --sandbox`, `plan --sandbox` see a world that moves), test sends approved at once (there is no
 * dashboard to approve them in), its virtual clock starting at the fixture's `clock.start` (the
 * examples' story happens on its own dates, whatever today is) and running at real speed. The key is
 * the fixture's first read-write key of its root organization; nothing is read from the environment.
 * The client's rate limiter keeps the system clock (it runs at the sandbox's speed). Plans and the
 * read cache name that world by `embeddedSandboxId` (`embedded-sandbox:default`, or
 * `embedded-sandbox:<name>-<hash>` as its state directory), never by its port.
 *
 * `Session.now()` is the API's time, the time the world the plan reads lives in: the embedded
 * sandbox's virtual clock; against an API, the server's `Date` header carried forward on the client's
 * clock (see src/api/server-clock.ts), this machine's clock until a response arrived.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { basename, dirname, extname, relative, resolve } from "node:path";
import {
  API_KEY_ENV,
  type ApiClient,
  type ApiEventListener,
  type Clock,
  createApiClient,
  resolveApiKey,
  resolveBaseUrl,
  type Sleep,
} from "../../src/api/index.js";
import { organizationKeys, organizationSlug } from "../../src/api/organization-keys.js";
import { createKeyRing, type KeyRing } from "../../src/api/routing/key-ring.js";
import { createOwnerRouter, type OwnerRouter } from "../../src/api/routing/router.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { SandboxHandle, SandboxOptions } from "../../src/sandbox/index.js";
import { notRegularFiles } from "../adapters/regular-file.js";
import type { Io } from "../output/io.js";
import { type NoticeWriter, withRateLimitNotice } from "../progress/rate-limit-notice.js";
import { VERSION } from "../version.js";

/** Where `--sandbox` keeps the embedded sandbox's world, relative to the working directory. */
export const SANDBOX_STATE_PATH = ".campaignctl/sandbox/state.json";

/**
 * The name of a fixture file's world: `<file name without extension>-<8 hex of the sha-256 of its
 * absolute path>`, so two fixtures never share a world, even with the same file name. It names the
 * world's state directory and, through {@link embeddedSandboxId}, the world itself.
 */
function fixtureWorldName(fixtureAbsolutePath: string): string {
  const name = basename(fixtureAbsolutePath, extname(fixtureAbsolutePath)).replace(/[^A-Za-z0-9._-]/g, "_");
  const hash = createHash("sha256").update(fixtureAbsolutePath).digest("hex").slice(0, 8);
  return `${name}-${hash}`;
}

/**
 * Where `--sandbox --fixture FILE` keeps that fixture's world, relative to the working directory:
 * `.campaignctl/sandbox/<name>-<hash>/state.json` (see `fixtureWorldName`).
 */
export function fixtureStatePath(fixtureAbsolutePath: string): string {
  return `.campaignctl/sandbox/${fixtureWorldName(fixtureAbsolutePath)}/state.json`;
}

/**
 * The embedded sandbox's identity, standing for its base URL (its port changes every run) wherever
 * the API must be named stably: the `base_url` a plan records (and a saved plan must match) and the
 * read cache's scope. `embedded-sandbox:<name>-<hash>` for `--fixture FILE` (the name of its state
 * directory), `embedded-sandbox:default` for the package's example fixture (state in
 * {@link SANDBOX_STATE_PATH}). Invariant: one world, one identity; two worlds never share one.
 */
export function embeddedSandboxId(fixtureAbsolutePath: string | undefined): string {
  return `embedded-sandbox:${fixtureAbsolutePath === undefined ? "default" : fixtureWorldName(fixtureAbsolutePath)}`;
}

/** The connection flags `plan` and `apply` share. */
export interface SessionFlags {
  /** Run against the embedded sandbox instead of an API. */
  readonly sandbox?: boolean;
  /** `--fixture`: the embedded sandbox's fixture file (relative to `io.cwd`). Only with `sandbox`. */
  readonly fixture?: string;
  /** `--base-url`; wins over `CAMPAIGNCTL_BASE_URL`. Ignored with `sandbox`. */
  readonly baseUrl?: string;
  /** `--api-key-env`: the environment variable holding the key (default `CAMPAIGNCTL_API_KEY`). */
  readonly apiKeyEnv?: string;
}

/** Injections for tests and benchmarks; the CLI passes none. */
export interface SessionOptions {
  /** The client's clock (rate limiter, retries). Default: this machine's clock, `io.clock`. */
  readonly clock?: Clock;
  /** The client's sleep. Default: a real timer. */
  readonly sleep?: Sleep;
  /** Overrides of the embedded sandbox's options (fixture, state path, time scale, ...). */
  readonly sandboxOptions?: Partial<SandboxOptions>;
  /** Hears every request, wait and retry of the client (progress display). */
  readonly onEvent?: ApiEventListener;
  /** Where the notice of a long rate-limit wait goes (rate-limit-notice.ts). Default: stderr. */
  readonly notify?: NoticeWriter;
}

/**
 * An open connection. Invariants: the API keys live only inside the clients beneath `client` (never
 * on this object); every request of the process goes through `client` (one client and rate limiter
 * per key beneath it), so its statistics count every request; `close` is idempotent and closes the
 * clients, then the embedded sandbox (flushing its state).
 */
export interface Session {
  readonly client: ApiClient;
  /** The checked base URL (ends in the `/v1` prefix); safe to print. */
  readonly baseUrl: string;
  /**
   * The API's stable name, safe to print and to store: the `base_url` a plan records (and a saved
   * plan must match) and the read cache's scope. `baseUrl` for an API; for the embedded sandbox,
   * whose port changes every run, its {@link embeddedSandboxId}.
   */
  readonly apiId: string;
  /**
   * Where the key came from, for messages: the environment variable's name, or `"the embedded
   * sandbox"`. Never the key itself.
   */
  readonly keySource: string;
  /** The embedded sandbox with `--sandbox`, else null. */
  readonly sandbox: SandboxHandle | null;
  /**
   * `client` itself: it routes every request by the organization that owns what it reads or writes
   * (src/api/routing), over the session's keys (`router.keys`: the default key, and each
   * organization's own key, `CAMPAIGNCTL_API_KEY_<SLUG>`). With `CAMPAIGNCTL_API_KEY` alone, every
   * request goes with it.
   */
  readonly router: OwnerRouter;
  /**
   * The time of the API's world: the sandbox's virtual clock with `--sandbox`; else the API's
   * `Date` header carried forward (this machine's clock before the first response).
   */
  now(): Date;
  /**
   * The API's clock and this machine's, read together, once a response carried a `Date` header;
   * null before that, and with the embedded sandbox (whose clock is its fixture's on purpose).
   */
  clockReading(): { readonly api: Date; readonly local: Date } | null;
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
  const clock = options.clock ?? { now: io.clock };
  const onEvent = withRateLimitNotice(io, options);
  const clientFor = (baseUrl: string, apiKey: string): ApiClient =>
    createApiClient({
      baseUrl,
      apiKey,
      clock,
      sleep: options.sleep,
      onEvent,
      userAgent: `campaignctl/${VERSION}`,
    });

  if (flags.sandbox === true) return openEmbedded(io, flags, options, clientFor);
  if (flags.fixture !== undefined)
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "cli.usage",
          message: "--fixture needs --sandbox: it names the embedded sandbox's fixture",
          hint: "add --sandbox, or drop --fixture to use the API at --base-url",
        },
      ],
    };

  const keyEnv = flags.apiKeyEnv ?? API_KEY_ENV;
  const baseUrl = resolveBaseUrl(flags.baseUrl, io.env);
  const key = resolveApiKey(io.env, keyEnv);
  const perOrganization = organizationKeys(io.env, keyEnv);
  const diagnostics: Diagnostic[] = [];
  if (!baseUrl.ok) diagnostics.push(baseUrl.diagnostic);
  // Per-organization keys alone are enough: each project's organization picks its own.
  if (!key.ok && (perOrganization.size === 0 || key.diagnostic.code !== "api.no-key"))
    diagnostics.push(key.diagnostic);
  if (!baseUrl.ok || diagnostics.length > 0) return { ok: false, diagnostics };
  const defaultClient = key.ok ? clientFor(baseUrl.value, key.value) : null;
  const ring = createKeyRing(
    defaultClient === null ? null : { source: keyEnv, client: defaultClient },
    [...perOrganization.values()].map((found) => ({
      slug: found.slug,
      source: found.variable,
      make: () => clientFor(baseUrl.value, found.key),
      sameAsDefault: key.ok && found.key === key.value,
    })),
    false,
  );
  const client = createOwnerRouter(ring);
  return {
    ok: true,
    session: {
      client,
      baseUrl: baseUrl.value,
      apiId: baseUrl.value,
      keySource: key.ok ? keyEnv : [...perOrganization.values()].map((k) => k.variable).join(", "),
      sandbox: null,
      router: client,
      now: () => client.serverTime() ?? new Date(clock.now()),
      clockReading: () => {
        const api = client.serverTime();
        return api === null ? null : { api, local: new Date(clock.now()) };
      },
      close: () => client.close(),
    },
  };
}

/** Starts the embedded sandbox (loaded only with --sandbox: the emulator is no part of talking to a real API). */
async function startEmbedded(
  io: Io,
  fixture: string | undefined,
  statePath: string,
  options: SessionOptions,
): Promise<{ ok: true; handle: SandboxHandle } | { ok: false; diagnostics: Diagnostic[] }> {
  const { formatProblem, openSandbox } = await import("../../src/sandbox/index.js");
  const started = await openSandbox({
    host: "127.0.0.1",
    port: 0,
    timeScale: 1,
    autoApproveTests: true,
    ...(fixture === undefined ? {} : { fixture }),
    ...options.sandboxOptions,
    statePath,
  });
  if (started.ok) return { ok: true, handle: started.handle };
  return {
    ok: false,
    diagnostics: started.problems.map((p) => ({
      severity: "error",
      code: "cli.file-unreadable",
      message: `the embedded sandbox did not start: ${formatProblem(p)}`,
      hint:
        p.where === statePath
          ? `delete ${relative(io.cwd, statePath)} to start the sandbox afresh from its fixture`
          : "fix the fixture file, then run again",
    })),
  };
}

async function openEmbedded(
  io: Io,
  flags: SessionFlags,
  options: SessionOptions,
  clientFor: (baseUrl: string, apiKey: string) => ApiClient,
): Promise<SessionResult> {
  const fixture = flags.fixture === undefined ? undefined : resolve(io.cwd, flags.fixture);
  // Only regular files are read (cli/adapters/regular-file.ts): a named pipe would be waited on for ever.
  if (flags.fixture !== undefined && fixture !== undefined) {
    const refused = await notRegularFiles([{ flag: "--fixture", shown: flags.fixture, path: fixture }]);
    if (refused.length > 0) return { ok: false, diagnostics: refused };
  }
  const defaultState = fixture === undefined ? SANDBOX_STATE_PATH : fixtureStatePath(fixture);
  const statePath = options.sandboxOptions?.statePath ?? resolve(io.cwd, defaultState);
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
  const started = await startEmbedded(io, fixture, statePath, options);
  if (!started.ok) return started;
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
  const client = createOwnerRouter(sandboxRing(handle, key, clientFor));
  let closed: Promise<void> | undefined;
  return {
    ok: true,
    session: {
      client,
      baseUrl: handle.baseUrl,
      apiId: embeddedSandboxId(fixture),
      keySource: "the embedded sandbox",
      sandbox: handle,
      router: client,
      now: () => handle.clock.now(),
      clockReading: () => null,
      close: () => {
        closed ??= client.close().then(() => handle.close());
        return closed;
      },
    },
  };
}

/**
 * The embedded sandbox's keys: `key` (its root organization's) as the default, and every
 * organization of the fixture with a usable read-write key gets that key, as if exported as
 * CAMPAIGNCTL_API_KEY_<SLUG>: a project of a child organization then acts with its own key.
 */
function sandboxRing(
  handle: SandboxHandle,
  key: string,
  clientFor: (baseUrl: string, apiKey: string) => ApiClient,
): KeyRing {
  return createKeyRing(
    { source: "the embedded sandbox", client: clientFor(handle.baseUrl, key) },
    [...sandboxOrganizationKeys(handle)].map(([slug, orgKey]) => ({
      slug,
      source: `the embedded sandbox (${orgKey.organization})`,
      make: () => clientFor(handle.baseUrl, orgKey.key),
      sameAsDefault: orgKey.key === key,
    })),
    true,
  );
}

/** The first usable read-write key of a root organization (one without a parent), in fixture order. */
function sandboxKey(handle: SandboxHandle): string | undefined {
  const orgs = handle.store.world.organizations;
  const usable = handle.keys.filter((k) => k.type === "read-write" && !k.revoked);
  const root = usable.find((k) => orgs[k.organization_id]?.parent_id === null);
  return (root ?? usable[0])?.key;
}

/** The first usable read-write key of each organization of the fixture, by organization slug. */
function sandboxOrganizationKeys(
  handle: SandboxHandle,
): Map<string, { readonly organization: string; readonly key: string }> {
  const out = new Map<string, { readonly organization: string; readonly key: string }>();
  for (const k of handle.keys) {
    if (k.type !== "read-write" || k.revoked) continue;
    const organization = handle.store.world.organizations[k.organization_id]?.name;
    if (organization === undefined) continue;
    const slug = organizationSlug(organization);
    if (slug !== "" && !out.has(slug)) out.set(slug, { organization, key: k.key });
  }
  return out;
}

function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : "unknown error";
}
