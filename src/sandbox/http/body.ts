/** Reading, parsing and schema-checking request bodies. Malformed JSON is a VALIDATION_ERROR. */
import type { IncomingMessage } from "node:http";
import { toIssues } from "../ajv.js";
import { BODY_VALIDATORS } from "../generated/validate-bodies.js";
import type { BodySchemaName } from "./body-schemas.js";
import { type ApiResponse, invalid, validationError } from "./responses.js";

const MAX_BODY_BYTES = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/**
 * The request body, at most 1 MiB. A request that declares none (no Transfer-Encoding, no
 * Content-Length or 0: HTTP/1.1 has no body then) is answered at once, without a stream iterator.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  const length = req.headers["content-length"];
  if (req.headers["transfer-encoding"] === undefined && (length === undefined || length === "0")) {
    req.resume();
    return EMPTY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return "too-large";
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parsed JSON (undefined for an empty body) or the 400 response. */
export function parseJson(
  raw: Buffer | "too-large",
): { ok: true; value: unknown } | { ok: false; response: ApiResponse } {
  if (raw === "too-large")
    return { ok: false, response: invalid([], "Request body exceeds 1 MiB", "too_big") };
  if (raw.length === 0) return { ok: true, value: undefined };
  const text = raw.toString("utf8");
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: invalid([], "Malformed JSON in request body", "invalid_json") };
  }
}

/**
 * Validates `body` against the schema named `schema` (http/body-schemas.ts, compiled at build time:
 * src/sandbox/generated/validate-bodies.ts); an empty body counts as `{}`. Undefined when valid.
 */
export function checkBody(schema: BodySchemaName, body: unknown): ApiResponse | undefined {
  const validate = BODY_VALIDATORS[schema];
  if (validate(body ?? {})) return undefined;
  return validationError(toIssues(validate.errors));
}
