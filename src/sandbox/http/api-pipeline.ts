/**
 * The /v1 request pipeline, in order: authenticate -> rate limit -> route -> permission -> parse
 * body -> faults that answer instead (status, reset, burst-429) -> idempotency (replay, 409, 422)
 * -> latency -> body schema -> handler -> store for replay -> commit-then-fail -> log.
 * Every response carries the X-RateLimit-* headers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as realSleep } from "node:timers/promises";
import type { ApiRoute, SandboxContext } from "../context.js";
import { unservedEmailGate } from "../email/access.js";
import { authenticate, checkPermission, isAuth } from "./auth.js";
import { checkBody, parseJson, readBody } from "./body.js";
import { dateHeader } from "./date-header.js";
import { beginIdempotent, checkIdempotencyKey, finishIdempotent } from "./idempotency.js";
import type { RateLimitEnforcer } from "./rate-limit-enforcer.js";
import { type ApiResponse, bodyForStatus, rateLimited, standardError } from "./responses.js";
import type { HttpMethod, Router } from "./router.js";
import { send } from "./send.js";

export interface ApiPipeline {
  readonly sandbox: SandboxContext;
  readonly router: Router<ApiRoute>;
  readonly rateLimiter: RateLimitEnforcer;
}

interface Outcome {
  response: ApiResponse | "reset";
  route: string | null;
  keyId: string | null;
  /** The organization of the key that authenticated (null without one). */
  keyOrganizationId: string | null;
  replayed: boolean;
  fault: string | null;
  idempotencyKey: string | null;
  rateHeaders: Record<string, string>;
}

/** The outcome's answer until a step gives one (every path does; never sent as it is). */
const UNANSWERED = standardError(500, "INTERNAL_ERROR", "Internal server error");

export async function handleApi(
  p: ApiPipeline,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const raw = await readBody(req);
  const method = (req.method ?? "GET").toUpperCase();
  const outcome = await run(p, req, method, path, query, raw);
  p.sandbox.requestLog.add({
    method,
    route: outcome.route,
    path,
    key_id: outcome.keyId,
    key_organization_id: outcome.keyOrganizationId,
    status: outcome.response === "reset" ? 0 : outcome.response.status,
    replayed: outcome.replayed,
    fault: outcome.fault,
    idempotency_key: outcome.idempotencyKey,
    atMs: p.sandbox.clock.nowMs(),
  });
  if (outcome.response === "reset") {
    res.destroy();
    return;
  }
  send(res, outcome.response, dateHeader(p.sandbox.clock.nowMs()), outcome.rateHeaders);
}

async function run(
  p: ApiPipeline,
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  raw: Buffer | "too-large",
): Promise<Outcome> {
  const { sandbox } = p;
  const now = sandbox.clock.nowMs();
  const idemHeader = header(req, "idempotency-key");
  const out: Outcome = {
    response: UNANSWERED,
    route: null,
    keyId: null,
    keyOrganizationId: null,
    replayed: false,
    fault: null,
    idempotencyKey: idemHeader ?? null,
    rateHeaders: {},
  };
  const auth = authenticate(sandbox.store.world, header(req, "x-api-key"), now);
  if (!isAuth(auth)) return { ...out, response: auth, rateHeaders: p.rateLimiter.anonymous(now) };
  out.keyId = auth.key.id;
  out.keyOrganizationId = auth.key.organization_id;
  const verdict = p.rateLimiter.take(auth.key, now);
  out.rateHeaders = verdict.headers;
  if (verdict.limited)
    return {
      ...out,
      response: rateLimited(verdict.retryAfter, Number(verdict.headers["x-ratelimit-limit"])),
    };
  const match = p.router.match(method, path);
  if (match === undefined)
    return {
      ...out,
      response:
        unservedEmailGate(sandbox.store.world, auth, path) ??
        standardError(404, "NOT_FOUND", `No route for ${method} /v1${path}`),
    };
  const { route, params } = match;
  out.route = route.template;
  const denied = checkPermission(auth, route.method as HttpMethod);
  if (denied) return { ...out, response: denied };
  const parsed = parseJson(raw);
  if (!parsed.ok) return { ...out, response: parsed.response };

  const faults = sandbox.faults.decide(method, route.template, auth.key.organization_id);
  if (faults.fired.length > 0) out.fault = faults.fired.join("; ");
  const before = faults.before;
  if (before !== null) {
    switch (before.kind) {
      case "reset":
        return { ...out, response: "reset" };
      case "status":
        return { ...out, response: bodyForStatus(before.status, before.retryAfter) };
      case "burst-429":
        return { ...out, response: bodyForStatus(429, before.retryAfter) };
    }
  }

  let recordKey: string | undefined;
  if (method === "POST" && idemHeader !== undefined) {
    const bad = checkIdempotencyKey(idemHeader);
    if (bad) return { ...out, response: bad };
    const scope = { organizationId: auth.key.organization_id, method, template: route.template, params };
    const start = beginIdempotent(sandbox.store, idemHeader, scope, parsed.value, now);
    if (start.kind === "respond") return { ...out, response: start.response, replayed: start.replayed };
    recordKey = start.recordKey;
  }

  if (faults.latency.virtualMs > 0) await sandbox.clock.sleep(faults.latency.virtualMs);
  if (faults.latency.realMs > 0) await realSleep(faults.latency.realMs);

  let response: ApiResponse;
  try {
    response =
      (route.bodySchema ? checkBody(route.bodySchema, parsed.value) : undefined) ??
      (await route.handler({
        params,
        query,
        body: parsed.value,
        auth,
        idempotencyKey: idemHeader ?? null,
        sandbox,
      }));
  } catch (error) {
    // A handler bug: answer as the API would, and release the key so a retry runs again.
    if (recordKey !== undefined) finishIdempotent(sandbox.store, recordKey, { status: 500, body: null });
    throw error;
  }
  if (recordKey !== undefined) finishIdempotent(sandbox.store, recordKey, response);
  const after = faults.after;
  if (after !== null) {
    return { ...out, response: after.status === "drop" ? "reset" : bodyForStatus(after.status, 1) };
  }
  return { ...out, response };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
