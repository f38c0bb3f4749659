/**
 * `createApiClient`: wires the transport, the shared rate limiter, retries, statistics and events
 * behind the typed endpoint functions.
 */
import { setTimeout as delay } from "node:timers/promises";
import { checkBaseUrl } from "./config.js";
import { createSend } from "./core.js";
import { bindEndpoints, type Endpoints } from "./endpoints.js";
import type { ApiEventListener } from "./events.js";
import { type Clock, RateLimiter, type Sleep } from "./rate-limiter.js";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.js";
import { ServerClock } from "./server-clock.js";
import { type ApiClientStats, StatsCollector } from "./stats.js";
import { createTransport, DEFAULT_TIMEOUTS, type Timeouts } from "./transport.js";

/** Configuration of one client. */
export interface ApiClientConfig {
  /** A base URL accepted by `resolveBaseUrl`/`checkBaseUrl` (ends in the `/v1` prefix). */
  readonly baseUrl: string;
  /** From `resolveApiKey`; sent only as `X-API-Key` and never placed in any error, event or stats. */
  readonly apiKey: string;
  /** The process-wide limiter for this key. Default: a new one on `clock`/`sleep`. */
  readonly limiter?: RateLimiter;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Default: a real timer. Tests pass the sandbox's virtual clock (`ms => sandbox.clock.advance(ms)`). */
  readonly sleep?: Sleep;
  /** Jitter source in [0, 1). Default: `Math.random`. */
  readonly random?: () => number;
  /** Retries of reads (a write is attempted once per call; its caller retries it: see retry-policy.ts). */
  readonly retry?: Partial<RetryOptions>;
  readonly timeouts?: Partial<Timeouts>;
  readonly onEvent?: ApiEventListener;
  readonly userAgent?: string;
}

/** The API client: every endpoint, plus accounting and shutdown. */
export interface ApiClient extends Endpoints {
  /** Requests by endpoint, retries, 429s and waits so far. */
  stats(): ApiClientStats;
  /**
   * The API's time now: the last response's `Date` header carried forward on the client's clock
   * (see server-clock.ts), or null before any response with a valid `Date`.
   */
  serverTime(): Date | null;
  /** Destroys the connection pool; later calls are a bug. */
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now() };
const realSleep: Sleep = async (ms) => {
  await delay(ms);
};

/**
 * Creates a client. Throws only on a programming error: a base URL that `checkBaseUrl` refuses (the
 * CLI must resolve it to a Diagnostic first) or an empty key.
 */
export function createApiClient(config: ApiClientConfig): ApiClient {
  const checked = checkBaseUrl(config.baseUrl);
  if (!checked.ok)
    throw new Error(`createApiClient: ${checked.diagnostic.code}: ${checked.diagnostic.message}`);
  if (config.apiKey === "") throw new Error("createApiClient: empty API key");
  const url = new URL(checked.value);
  const clock = config.clock ?? systemClock;
  const sleep = config.sleep ?? realSleep;
  const limiter = config.limiter ?? new RateLimiter({ clock, sleep });
  const transport = createTransport({ ...DEFAULT_TIMEOUTS, ...config.timeouts });
  const stats = new StatsCollector();
  const serverClock = new ServerClock(clock);
  const send = createSend({
    origin: url.origin,
    pathPrefix: url.pathname === "/" ? "" : url.pathname,
    apiKey: config.apiKey,
    userAgent: config.userAgent ?? "campaignctl",
    transport,
    limiter,
    clock,
    sleep,
    random: config.random ?? Math.random,
    retry: { ...DEFAULT_RETRY, ...config.retry },
    stats,
    serverClock,
    onEvent: config.onEvent,
  });
  return {
    ...bindEndpoints(send),
    stats: () => stats.snapshot(limiter.stats()),
    serverTime: () => serverClock.now(),
    close: () => transport.close(),
  };
}
