/**
 * The node:http server: `/v1/*` goes through the API pipeline, `/_sandbox/*` to the admin routes
 * (no key, no rate limit), anything else is a 404 standard error. A handler that throws is a bug:
 * it answers 500 INTERNAL_ERROR and is reported through `onBug`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AdminRoute, ApiRoute, SandboxContext } from "../context.js";
import { type ApiPipeline, handleApi } from "./api-pipeline.js";
import { checkBody, parseJson, readBody } from "./body.js";
import { dateHeader } from "./date-header.js";
import type { RateLimitEnforcer } from "./rate-limit-enforcer.js";
import { parseRequestPath } from "./request-path.js";
import { invalid, standardError } from "./responses.js";
import type { Router } from "./router.js";
import { send } from "./send.js";

export interface ServerParts {
  readonly sandbox: SandboxContext;
  readonly apiRouter: Router<ApiRoute>;
  readonly adminRouter: Router<AdminRoute>;
  readonly rateLimiter: RateLimitEnforcer;
  readonly onBug: (error: unknown) => void;
}

export function createSandboxServer(parts: ServerParts): Server {
  const pipeline: ApiPipeline = {
    sandbox: parts.sandbox,
    router: parts.apiRouter,
    rateLimiter: parts.rateLimiter,
  };
  return createServer((req, res) => {
    dispatch(parts, pipeline, req, res).catch((error: unknown) => {
      parts.onBug(error);
      if (!res.headersSent)
        send(res, standardError(500, "INTERNAL_ERROR", "Internal server error"), dated(parts));
    });
  });
}

/**
 * The sandbox's clock is the API's clock: every response is dated by virtual time when it is sent
 * (the API pipeline's after any virtual latency).
 */
function dated(parts: ServerParts): string {
  return dateHeader(parts.sandbox.clock.nowMs());
}

async function dispatch(
  parts: ServerParts,
  pipeline: ApiPipeline,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const parsed = parseRequestPath(req.url ?? "/");
  if (!parsed.ok) {
    await readBody(req);
    send(res, invalid(["path"], `Malformed request path: ${parsed.reason}`, "invalid_path"), dated(parts));
    return;
  }
  const { path, query } = parsed;
  if (path === "/v1" || path.startsWith("/v1/")) {
    await handleApi(pipeline, req, res, path.slice(3) || "/", query);
    return;
  }
  if (path.startsWith("/_sandbox/")) {
    await handleAdmin(parts, req, res, path.slice("/_sandbox".length), query);
    return;
  }
  await readBody(req);
  send(
    res,
    standardError(404, "NOT_FOUND", `No route for ${req.method ?? "GET"} ${path}; the API lives under /v1`),
    dated(parts),
  );
}

async function handleAdmin(
  parts: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const raw = await readBody(req);
  const method = (req.method ?? "GET").toUpperCase();
  const match = parts.adminRouter.match(method, path);
  if (match === undefined) {
    send(
      res,
      standardError(404, "NOT_FOUND", `No sandbox route for ${method} /_sandbox${path}`),
      dated(parts),
    );
    return;
  }
  const parsed = parseJson(raw);
  if (!parsed.ok) {
    send(res, parsed.response, dated(parts));
    return;
  }
  const { route, params } = match;
  const response =
    (route.bodySchema ? checkBody(route.bodySchema, parsed.value) : undefined) ??
    (await route.handler({ params, query, body: parsed.value, sandbox: parts.sandbox }));
  send(res, response, dated(parts));
}
