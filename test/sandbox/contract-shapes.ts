/**
 * JSON Schemas of the contract's response shapes (api-contract.md, Resources and Errors, plus the
 * vendor-SDK facts of design.md), used to check every answer of the sandbox: the answers' `data` as
 * the client checks them (src/api/response-schemas.ts, the one writing of their fields) with the
 * contract's formats on top, and the error bodies.
 */
import { expect } from "vitest";
import { RESPONSE_SCHEMAS } from "../../src/api/response-schemas.js";
import { type ShapeOptions, shapeValidator } from "../helpers/cached-validator.js";

const str = { type: "string" };
const int = { type: "integer" };
const dateTime = { type: "string", format: "date-time" };
const dateTimeMs = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2})$",
};
const nullable = (s: object) => ({ oneOf: [s, { type: "null" }] });
const obj = (properties: Record<string, object>, extra = true) => ({
  type: "object",
  required: Object.keys(properties),
  properties,
  additionalProperties: extra,
});
const envelope = (data: object) => obj({ success: { const: true }, data }, false);

/**
 * An answer's `data` as the client checks it (src/api/response-schemas.ts: the one writing of the
 * contract's fields, types and statuses) and, on top, the formats the contract gives some of its
 * values, which the sandbox must write and the client does not refuse (`formats`: a schema of those
 * properties alone).
 */
const refined = (schema: object, formats: object) => ({ allOf: [schema, formats] });
const formatsOf = (properties: Record<string, object>) => ({ properties });
const items = (schema: object) => ({ items: schema });

const project = refined(RESPONSE_SCHEMAS.project, formatsOf({ created_at: dateTime, updated_at: dateTime }));

const phoneNumber = formatsOf({
  number: { type: "string", pattern: "^\\+[1-9]\\d{6,14}$" },
  created_at: dateTime,
});

const statsRow = formatsOf({
  actual_cost: { type: "string", pattern: "^\\d+\\.\\d{4}$" },
  created_at: dateTimeMs,
  completed_at: nullable(dateTimeMs),
  updated_at: dateTimeMs,
});

const day = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
const created = formatsOf({ created_at: dateTime });

export const SHAPES = {
  project: envelope(project),
  organizations: envelope(refined(RESPONSE_SCHEMAS.organizations, items(created))),
  phoneNumbers: envelope(refined(RESPONSE_SCHEMAS.phoneNumbers, items(phoneNumber))),
  tollFreeVerification: envelope(
    refined(
      RESPONSE_SCHEMAS.tollFreeVerification,
      formatsOf({
        submitted_at: dateTime,
        verified_at: nullable(dateTime),
        created_at: dateTime,
        updated_at: dateTime,
      }),
    ),
  ),
  media: envelope(
    refined(RESPONSE_SCHEMAS.media, formatsOf({ created_at: dateTime, optimized_at: nullable(dateTime) })),
  ),
  campaigns: envelope(refined(RESPONSE_SCHEMAS.tenDlcCampaigns, items(created))),
  contactLists: envelope(refined(RESPONSE_SCHEMAS.contactLists, items(created))),
  stats: envelope(
    refined(
      RESPONSE_SCHEMAS.projectStats,
      formatsOf({
        projects: items(statsRow),
        summary: formatsOf({
          dateRange: formatsOf({ earliestProject: nullable(dateTime), latestProject: nullable(dateTime) }),
        }),
        dateRange: formatsOf({ startDate: day, endDate: day }),
      }),
    ),
  ),
  testSent: envelope(
    refined(
      RESPONSE_SCHEMAS.testResult,
      formatsOf({
        status: { const: "awaiting_test" },
        test_messages: items(formatsOf({ sent_to: { type: "string", pattern: "^\\+1\\d{3}\\*{4}\\d{3}$" } })),
      }),
    ),
  ),
  scheduled: envelope(
    refined(
      RESPONSE_SCHEMAS.scheduleResult,
      formatsOf({ status: { const: "scheduled" }, scheduled_at: dateTime }),
    ),
  ),
  standardError: {
    type: "object",
    required: ["error", "code"],
    properties: { error: str, code: str, correlationId: str, details: { type: ["array", "object"] } },
    additionalProperties: false,
  },
  validationError: {
    type: "object",
    required: ["error", "code", "details"],
    properties: {
      error: str,
      code: { const: "VALIDATION_ERROR" },
      correlationId: str,
      details: {
        type: "array",
        minItems: 1,
        items: obj({
          code: str,
          path: { type: "array", items: { type: ["string", "integer"] } },
          message: str,
        }),
      },
    },
    additionalProperties: false,
  },
  authError: obj({ error: str, message: str }, false),
  rateLimitError: obj(
    {
      success: { const: false },
      error: str,
      message: str,
      code: { const: "RATE_LIMIT_EXCEEDED" },
      statusCode: { const: 429 },
      retryAfter: int,
    },
    false,
  ),
} as const;

/** ajv 2020-12, every error, not strict, every ajv-formats format. */
const OPTIONS: ShapeOptions = { ajv: { allErrors: true, strict: false }, formats: true };

/** Asserts that `body` has the contract's shape `name`, showing ajv's errors on failure. */
export function expectShape(name: keyof typeof SHAPES, body: unknown): void {
  const schema: object | undefined = SHAPES[name];
  if (schema === undefined) throw new Error(`no shape ${name}`);
  // Compiled at its first use (in any worker, any pass), then loaded from the tests' validator cache.
  const validate = shapeValidator(`contract-${name}`, schema, OPTIONS);
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${name}: ${JSON.stringify(body)?.slice(0, 400)}`).toEqual([]);
}
