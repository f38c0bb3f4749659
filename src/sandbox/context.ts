/**
 * What route handlers are given. Seams for phase 2: a new feature is a route module exporting
 * `ApiRoute[]` (or `AdminRoute[]`) added to `routes/index.ts` (or `admin/index.ts`), plus any
 * collections it needs in `state/world.ts`; simulation code subscribes to `ctx.sandbox.clock`.
 */
import type { VirtualClock } from "./clock.js";
import type { FaultEngine } from "./faults/engine.js";
import type { BodySchemaName } from "./http/body-schemas.js";
import type { ApiResponse } from "./http/responses.js";
import type { HttpMethod } from "./http/router.js";
import type { RequestLog } from "./request-log.js";
import type { Store } from "./state/store.js";
import type { ApiKeyRecord, World } from "./state/world.js";

/** Resolved settings of a running sandbox. */
export interface SandboxConfig {
  readonly rateLimits: boolean;
  readonly autoApproveTests: boolean;
  readonly seed: number;
  readonly startMs: number;
}

/** Everything shared by the pipeline and handlers of one running sandbox. */
export interface SandboxContext {
  readonly store: Store;
  readonly clock: VirtualClock;
  readonly config: SandboxConfig;
  readonly faults: FaultEngine;
  readonly requestLog: RequestLog;
  /** Rebuilds the fixture's world (for `POST /_sandbox/reset`). */
  readonly freshWorld: () => World;
  /** Clears in-memory pipeline state (rate windows) on reset. */
  readonly resetPipeline: () => void;
}

/** The authenticated caller. Invariant: `orgIds` is the key's organization and all its descendants. */
export interface AuthContext {
  readonly key: ApiKeyRecord;
  readonly orgIds: ReadonlySet<string>;
}

export interface ApiRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body (undefined when empty). Validated against `bodySchema` before the handler. */
  readonly body: unknown;
  readonly auth: AuthContext;
  readonly idempotencyKey: string | null;
  readonly sandbox: SandboxContext;
}

/**
 * A `/v1` route. `bodySchema` names the body's JSON Schema (2020-12) in http/body-schemas.ts, checked
 * first; failures are VALIDATION_ERROR.
 */
export interface ApiRoute {
  readonly method: HttpMethod;
  readonly template: string;
  readonly bodySchema?: BodySchemaName;
  readonly handler: (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;
}

export interface AdminRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly sandbox: SandboxContext;
}

/** A `/_sandbox` route (no key, no rate limit, not logged). `bodySchema` as for {@link ApiRoute}. */
export interface AdminRoute {
  readonly method: HttpMethod;
  readonly template: string;
  readonly bodySchema?: BodySchemaName;
  readonly handler: (req: AdminRequest) => ApiResponse | Promise<ApiResponse>;
}
