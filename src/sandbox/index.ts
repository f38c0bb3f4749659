/**
 * campaignctl sandbox: a stateful local emulator of the messaging API (contract v1.4.0) over real
 * HTTP. `startSandbox` is what tests use; `openSandbox` returns start problems (bad fixture, bad
 * state file, bad fault spec, port in use) as data for the CLI.
 */
import type { AddressInfo } from "node:net";
import { adminRoutes } from "./admin/index.js";
import { VirtualClock } from "./clock.js";
import type { SandboxConfig, SandboxContext } from "./context.js";
import { FaultEngine } from "./faults/engine.js";
import { type ClockStart, planClockStart } from "./fixture/clock-start.js";
import { loadFixtureFile, validateFixtureData } from "./fixture/load.js";
import { fixtureToWorld } from "./fixture/to-world.js";
import type { Fixture } from "./fixture/types.js";
import { RateLimitEnforcer } from "./http/rate-limit-enforcer.js";
import { Router } from "./http/router.js";
import { createSandboxServer } from "./http/server.js";
import { defaultFixturePath } from "./paths.js";
import { RequestLog } from "./request-log.js";
import { apiRoutes } from "./routes/index.js";
import { ObservedStore } from "./simulation/observed-store.js";
import { startSimulation } from "./simulation/runtime.js";
import { loadState } from "./state/persist.js";
import type { Store } from "./state/store.js";

export type { VirtualClock } from "./clock.js";
export type { ClockStart } from "./fixture/clock-start.js";
export type { Fixture } from "./fixture/types.js";
export type { Store } from "./state/store.js";
export type { World } from "./state/world.js";

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** A fixture file path or an already parsed fixture; default: the package's examples/sandbox.yaml. */
  readonly fixture?: string | Fixture;
  /** Persist the whole state here after every change; reloaded on start when it exists. */
  readonly statePath?: string;
  /** Virtual seconds per real second; 0 (default): the clock moves only when advanced. */
  readonly timeScale?: number;
  /**
   * Where the virtual clock starts (ignored when state is reloaded): `"fixture"` (default) at the
   * fixture's `clock.start` (else real now) with its dates as written; a Date: there, with every
   * timestamp of the fixture moved by the same offset from its `clock.start` (see fixture/clock-start.ts).
   */
  readonly start?: ClockStart;
  readonly rateLimits?: boolean;
  readonly autoApproveTests?: boolean;
  /** Fault spec (see faults/spec.ts). */
  readonly faults?: string;
  readonly seed?: number;
  /**
   * The clock of webhook deliveries' `X-Timestamp`: `"virtual"` (default) the sandbox's clock;
   * `"wall"` this machine's clock (`wallClock`), for a receiver that judges timestamps against its
   * own clock while the virtual clock runs elsewhere (`--webhook-clock wall`).
   */
  readonly webhookClock?: WebhookClock;
  /** This machine's clock in ms since the epoch, for `webhookClock: "wall"` (default `Date.now`). */
  readonly wallClock?: () => number;
}

/** Which clock stamps webhook deliveries' `X-Timestamp` (see {@link SandboxOptions.webhookClock}). */
export type WebhookClock = "virtual" | "wall";

/** A fixture API key as printed by the CLI and used by tests. */
export interface SandboxKey {
  readonly key: string;
  readonly id: string;
  readonly name: string;
  readonly organization_id: string;
  readonly organization_name: string;
  readonly type: string;
  readonly scopes: readonly string[];
  readonly revoked: boolean;
  readonly expires_at: string | null;
}

export interface SandboxHandle {
  /** `http://host:port/v1` */
  readonly baseUrl: string;
  /** `http://host:port` (the `/_sandbox` routes live under it). */
  readonly rootUrl: string;
  readonly keys: readonly SandboxKey[];
  readonly clock: VirtualClock;
  /** Read access to the world (`store.world`); change it only through the API or `/_sandbox`. */
  readonly store: Store;
  /** Handler exceptions (bugs) seen so far; each also answered 500 INTERNAL_ERROR. */
  readonly bugs: readonly unknown[];
  readonly fixtureFile: string | null;
  close(): Promise<void>;
}

/** A reason the sandbox could not start. `where` is a file path or an option name. */
export interface SandboxProblem {
  readonly where: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export type SandboxStart =
  | { readonly ok: true; readonly handle: SandboxHandle }
  | { readonly ok: false; readonly problems: readonly SandboxProblem[] };

export async function openSandbox(options: SandboxOptions = {}): Promise<SandboxStart> {
  const fail = (problems: SandboxProblem[]): SandboxStart => ({ ok: false, problems });
  let fixture: Fixture;
  let fixtureFile: string | null = null;
  if (typeof options.fixture === "object") {
    const problems = validateFixtureData(options.fixture);
    if (problems.length > 0) return fail(problems.map((p) => ({ where: "fixture", message: p.message })));
    fixture = options.fixture;
  } else {
    const file = options.fixture ?? defaultFixturePath();
    const loaded = loadFixtureFile(file);
    if (!loaded.ok)
      return fail(
        loaded.problems.map((p) => ({ where: p.file, line: p.line, column: p.column, message: p.message })),
      );
    fixture = loaded.fixture;
    fixtureFile = file;
  }
  const planned = planClockStart(fixture, options.start ?? "fixture", Date.now());
  if (planned === null) return fail([{ where: "--start", message: "not a valid date-time" }]);
  const { startMs, shiftMs } = planned;
  const freshWorld = () => fixtureToWorld(fixture, startMs, shiftMs);
  let world = freshWorld();
  let nowMs = startMs;
  if (options.statePath !== undefined) {
    const state = loadState(options.statePath);
    switch (state.kind) {
      case "invalid":
        return fail([{ where: options.statePath, message: state.message }]);
      case "loaded":
        world = state.world;
        nowMs = state.nowMs;
        break;
      case "absent":
        break;
    }
  }
  const seed = options.seed ?? 1;
  const faults = new FaultEngine(seed);
  if (options.faults !== undefined && options.faults.trim() !== "") {
    const problem = faults.add(options.faults);
    if (problem !== undefined) return fail([{ where: "--faults", message: problem }]);
  }
  const clock = new VirtualClock({ startMs: nowMs, timeScale: options.timeScale ?? 0 });
  const store = new ObservedStore(world, clock, seed, options.statePath);
  store.persist();
  const config: SandboxConfig = {
    rateLimits: options.rateLimits ?? true,
    autoApproveTests: options.autoApproveTests ?? false,
    seed,
    startMs,
  };
  const rateLimiter = new RateLimitEnforcer(config.rateLimits);
  const requestLog = new RequestLog();
  const sandbox: SandboxContext = {
    store,
    clock,
    config,
    faults,
    requestLog,
    freshWorld,
    resetPipeline: () => rateLimiter.clear(),
  };
  const bugs: unknown[] = [];
  const server = createSandboxServer({
    sandbox,
    apiRouter: new Router(apiRoutes),
    adminRouter: new Router(adminRoutes),
    rateLimiter,
    onBug: (error) => {
      bugs.push(error);
    },
  });
  const host = options.host ?? "127.0.0.1";
  const listening = await new Promise<AddressInfo | string>((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "EADDRINUSE" ? "port already in use" : error.message),
    );
    server.listen(options.port ?? 0, host, () => resolve(server.address() as AddressInfo));
  });
  if (typeof listening === "string") {
    clock.stop();
    return fail([
      { where: "--port", message: `cannot listen on ${host}:${options.port ?? 0}: ${listening}` },
    ]);
  }
  const simulation = startSimulation(
    sandbox,
    store,
    (error) => bugs.push(error),
    options.webhookClock === "wall" ? (options.wallClock ?? Date.now) : undefined,
  );
  const unsubscribe = clock.onTick(() => store.persist());
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const rootUrl = `http://${urlHost}:${listening.port}`;
  let closed: Promise<void> | undefined;
  const handle: SandboxHandle = {
    baseUrl: `${rootUrl}/v1`,
    rootUrl,
    keys: Object.values(world.apiKeys).map((k) => ({
      key: k.key,
      id: k.id,
      name: k.name,
      organization_id: k.organization_id,
      organization_name: world.organizations[k.organization_id]?.name ?? "",
      type: k.type,
      scopes: [...k.scopes],
      revoked: k.revoked,
      expires_at: k.expires_at,
    })),
    clock,
    store,
    bugs,
    fixtureFile,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        unsubscribe();
        simulation.stop();
        clock.stop();
        store.persist();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
  return { ok: true, handle };
}

/** Starts a sandbox or rejects with the start problems (for tests, where they are a bug). */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const started = await openSandbox(options);
  if (started.ok) return started.handle;
  throw new Error(`sandbox did not start: ${started.problems.map(formatProblem).join("; ")}`);
}

/** `file:line:col: message` (or `where: message`), the format the CLI prints. */
export function formatProblem(p: SandboxProblem): string {
  const at = p.line !== undefined ? `${p.where}:${p.line}:${p.column ?? 1}` : p.where;
  return `${at}: ${p.message}`;
}
