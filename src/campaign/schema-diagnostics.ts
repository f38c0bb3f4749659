/**
 * Turns ajv's errors for one document into Diagnostics that point at the offending YAML node: the
 * unknown key itself, the map lacking a required key, the value of the wrong type or form. Pure.
 */
import type { ErrorObject } from "ajv";
import type { Document } from "yaml";
import type { CampaignCode } from "../diagnostics/codes/campaign.js";
import type { Diagnostic, DiagnosticFix, SourceRange } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../text/did-you-mean.js";
import { isPhonePath, phoneFixes, phoneHint } from "./schema-phone.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { MESSAGE_BLOCK_HINT } from "./yaml-message-structure.js";
import { findPath, type PathHit, pointerSegments, type Span } from "./yaml-path.js";

interface SchemaNode {
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode | boolean>>;
}

export function schemaDiagnostics(
  errors: readonly ErrorObject[],
  doc: Document,
  source: SourceText,
): Diagnostic[] {
  return collapseAlternatives(errors)
    .filter((e) => e.keyword !== "propertyNames")
    .map((e) => toDiagnostic(e, doc, source));
}

/** An `anyOf` failure is reported once, not once per alternative. */
function collapseAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const alternatives = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  return errors.filter(
    (e) =>
      !alternatives.some(
        (a) => a !== e && a.instancePath === e.instancePath && e.schemaPath.startsWith(`${a.schemaPath}/`),
      ),
  );
}

function toDiagnostic(error: ErrorObject, doc: Document, source: SourceText): Diagnostic {
  const segments = pointerSegments(error.instancePath);
  const where = findPath(doc, doc.contents, segments);
  const schema = (error.parentSchema ?? {}) as SchemaNode;
  const what = schema.title ?? lastName(segments);
  const context = describePath(segments);
  const data: unknown = error.data;
  const at = (span: Span | undefined) => (span ? rangeAt(source, span[0], span[1]) : undefined);
  const valueRange = at(where.value) ?? at(where.key) ?? rangeAt(source, 0, 0);
  const make = (
    code: CampaignCode,
    message: string,
    range: SourceRange,
    hint?: string,
    fixes: readonly DiagnosticFix[] = [],
  ): Diagnostic => ({
    severity: "error",
    code,
    message,
    range,
    ...(hint === undefined ? {} : { hint }),
    ...(fixes.length === 0 ? {} : { fixes }),
  });
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) return badPropertyName(error, doc, source, segments, propertyName, schema);

  const isVersion = segments.length === 1 && segments[0] === "version";
  const badVersion = () =>
    make(
      "campaign.bad-version",
      `unsupported campaign file version ${show(data)}`,
      valueRange,
      "this campaignctl reads `version: 1`",
    );
  switch (error.keyword) {
    case "required": {
      const missing = String(error.params.missingProperty);
      if (segments.length === 0 && missing === "version")
        return make(
          "campaign.bad-version",
          "file has no `version`",
          headRange(source, where),
          "add `version: 1`",
        );
      const property = schema.properties?.[missing];
      const hint = typeof property === "object" && property.description ? property.description : undefined;
      return make(
        "campaign.missing-key",
        `${context} lacks the required key \`${missing}\``,
        headRange(source, where),
        hint,
      );
    }
    case "additionalProperties": {
      const extra = String(error.params.additionalProperty);
      const keyHit = findPath(doc, doc.contents, [...segments, extra]);
      const known = Object.keys(schema.properties ?? {}).filter((k) => schema.properties?.[k] !== false);
      const suggestion = didYouMean(extra, known);
      // A template's schedule is a local time (its instances' zones give the offsets).
      const localTime = extra === "at" && segments[0] === "templates" && known.includes("local");
      const hint = localTime
        ? 'a template\'s schedule is a local time without offset: write `local: "2026-12-07T10:00"`, and `timezone:` on the instance (or the template) gives each its offset'
        : suggestion
          ? `did you mean \`${suggestion}\`?`
          : `allowed keys: ${known.join(", ")}`;
      return make(
        "campaign.unknown-key",
        `unknown key \`${extra}\` in ${context}`,
        at(keyHit.key) ?? valueRange,
        hint,
        suggestion ? [changeTo(suggestion)] : [],
      );
    }
    case "false schema": {
      const key = lastName(segments);
      const range = at(where.key) ?? valueRange;
      if (segments[0] === "defaults" && key === "id")
        return make(
          "campaign.unknown-key",
          "`id` cannot be a default: every project has its own id",
          range,
          "move `id` into each project",
        );
      return make(
        "campaign.unknown-key",
        `key \`${key}\` is not allowed in ${describePath(segments.slice(0, -1))}`,
        range,
      );
    }
    case "const":
      if (isVersion) return badVersion();
      return make(
        "campaign.schema-enum",
        `${show(data)} is not allowed for ${context}; it must be ${show(error.params.allowedValue)}`,
        valueRange,
      );
    case "type": {
      if (isVersion) return badVersion();
      const written = where.value ? source.text.slice(where.value[0], where.value[1]) : "";
      // A phone number written without quotes: YAML reads `+15035550101` as the number 15035550101.
      if (error.params.type === "string" && typeof data === "number" && isPhonePath(segments))
        return make(
          "campaign.yaml-unquoted-phone",
          `${context}: ${written} is read as the number ${String(data)}, not as a phone number`,
          valueRange,
          `${phoneHint(written)} (unquoted, YAML reads ${written} as a number)`,
          phoneFixes(written, true),
        );
      // A project id written without quotes: YAML reads `12345` as a number, and `0012345` as 12345.
      if (error.params.type === "string" && typeof data === "number" && isProjectIdPath(segments))
        return make(
          "campaign.yaml-unquoted-id",
          `${context}: ${written} is read as the number ${String(data)}, but a project id is a string`,
          valueRange,
          `write it in quotes: \`id: "${written}"\` (unquoted, YAML reads digits as a number, and leading zeros would be lost)`,
          [{ title: `Quote it: "${written}"`, edit: "replace-value", text: written }],
        );
      if (error.params.type === "string" && (typeof data === "number" || typeof data === "boolean"))
        return make(
          "campaign.schema-type",
          `${context} must be a string: ${written} is read as ${article(typeName(data))}`,
          valueRange,
          `write it in quotes: \`${lastName(segments)}: "${written}"\``,
        );
      if (error.params.type === "array" && typeof data === "string")
        return make(
          "campaign.schema-type",
          `${context} must be a list, not a single text`,
          valueRange,
          `write it as a list, even of one item: \`${lastName(segments)}: [${written}]\``,
        );
      if (error.params.type === "number" && typeof data === "string" && /^\d+(?:\.\d+)?\s*%$/.test(data)) {
        const percent = Number.parseFloat(data);
        return make(
          "campaign.rate-as-percent",
          `${context} is ${show(data)}, but a rate is a fraction from 0 to 1 (0.1 for 10 %), not a percent`,
          valueRange,
          `for ${String(percent)} %, write \`${lastName(segments)}: ${String(Number((percent / 100).toPrecision(12)))}\``,
        );
      }
      if (error.params.type === "string" && Array.isArray(data) && lastName(segments) === "message")
        return make(
          "campaign.message-not-text",
          `${context} is written as a list, but a message is one text`,
          valueRange,
          MESSAGE_BLOCK_HINT,
        );
      return make(
        "campaign.schema-type",
        `${context} must be ${article(String(error.params.type))}, not ${article(typeName(data))}`,
        valueRange,
        schema.description,
      );
    }
    case "maximum":
    case "minimum":
    case "exclusiveMaximum":
    case "exclusiveMinimum": {
      const limit = Number(error.params.limit);
      const name = lastName(segments);
      if (error.keyword === "maximum" && limit === 1 && name.endsWith("_rate") && typeof data === "number")
        return make(
          "campaign.rate-as-percent",
          `${context} is ${String(data)}, but a rate is a fraction from 0 to 1 (0.1 for 10 %), not a percent`,
          valueRange,
          data <= 100
            ? `for ${String(data)} %, write \`${name}: ${String(Number((data / 100).toPrecision(12)))}\``
            : schema.description,
        );
      const bound = {
        maximum: "at most",
        minimum: "at least",
        exclusiveMaximum: "less than",
        exclusiveMinimum: "more than",
      }[error.keyword];
      return make(
        "campaign.schema-invalid",
        `${context} must be ${bound} ${String(limit)}, not ${show(data)}`,
        valueRange,
        schema.description,
      );
    }
    case "enum": {
      const allowed = (error.params.allowedValues as unknown[]).map(String);
      const suggestion = typeof data === "string" ? didYouMean(data, allowed) : undefined;
      const hint = `${suggestion ? `did you mean \`${suggestion}\`? ` : ""}allowed values: ${allowed.join(", ")}`;
      return make(
        "campaign.schema-enum",
        `${show(data)} is not a valid ${what}`,
        valueRange,
        hint,
        suggestion ? [changeTo(suggestion)] : [],
      );
    }
    case "pattern":
      return make(
        "campaign.schema-pattern",
        `${show(data)} is not a valid ${what}`,
        valueRange,
        isPhonePath(segments) && typeof data === "string" ? phoneHint(data) : schema.description,
        isPhonePath(segments) && typeof data === "string" ? phoneFixes(data, false) : [],
      );
    case "format":
    case "anyOf":
    case "oneOf":
      return make(
        "campaign.schema-format",
        `${show(data)} is not a valid ${what}`,
        valueRange,
        schema.description,
      );
    case "minItems":
    case "maxItems":
    case "minLength":
    case "maxLength":
    case "minProperties":
    case "maxProperties":
      return make(
        "campaign.schema-limit",
        limitMessage(error, context, data),
        valueRange,
        schema.description,
      );
    case "uniqueItems": {
      const i = Number(error.params.i);
      const j = Number(error.params.j);
      const later = findPath(doc, doc.contents, [...segments, Math.max(i, j)]);
      const earlier = findPath(doc, doc.contents, [...segments, Math.min(i, j)]);
      const diagnostic = make(
        "campaign.schema-unique",
        `${context} lists the same item twice`,
        at(later.value) ?? valueRange,
        "remove the repeated item",
      );
      const first = at(earlier.value);
      return first
        ? { ...diagnostic, related: [{ message: "first listed here", range: first }] }
        : diagnostic;
    }
    default:
      return make("campaign.schema-invalid", `${context} ${error.message ?? "is invalid"}`, valueRange);
  }
}

function badPropertyName(
  error: ErrorObject,
  doc: Document,
  source: SourceText,
  segments: readonly string[],
  name: string,
  schema: SchemaNode,
): Diagnostic {
  const keyHit = findPath(doc, doc.contents, [...segments, name]);
  const range = keyHit.key ? rangeAt(source, keyHit.key[0], keyHit.key[1]) : rangeAt(source, 0, 0);
  const isAddress = segments.length === 1 && segments[0] === "projects";
  const hint = schema.description ?? error.message;
  return {
    severity: "error",
    code: isAddress ? "campaign.bad-address" : "campaign.schema-pattern",
    message: isAddress
      ? `project address \`${name}\` is not valid`
      : `\`${name}\` is not a valid ${schema.title ?? "key"} in ${describePath(segments)}`,
    range,
    ...(hint === undefined ? {} : { hint }),
  };
}

/** The key introducing a map (or the map's first line), for problems of the map as a whole. */
function headRange(source: SourceText, where: PathHit): SourceRange {
  if (where.key) return rangeAt(source, where.key[0], where.key[1]);
  const start = where.value?.[0] ?? 0;
  const lineEnd = source.text.indexOf("\n", start);
  const end = Math.min(where.value?.[1] ?? start, lineEnd < 0 ? source.text.length : lineEnd);
  return rangeAt(source, start, end);
}

function limitMessage(error: ErrorObject, context: string, data: unknown): string {
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case "minItems":
      return `${context} needs at least ${limit} item${limit === 1 ? "" : "s"}, it has ${count(data)}`;
    case "maxItems":
      return `${context} allows at most ${limit} items, it has ${count(data)}`;
    case "minLength":
      return `${context} must be at least ${limit} character${limit === 1 ? "" : "s"} long`;
    case "maxLength":
      return `${context} allows at most ${limit} characters, it has ${typeof data === "string" ? data.length : "more"}`;
    default:
      return `${context} ${error.message ?? "is out of bounds"}`;
  }
}

function count(data: unknown): number {
  return Array.isArray(data) ? data.length : 0;
}

/** A project's `id` (under `projects.<address>`). */
function isProjectIdPath(segments: readonly string[]): boolean {
  return segments.length === 3 && segments[0] === "projects" && segments[2] === "id";
}

/** `project \`gotv\` at test.contacts[0].phone`, `defaults at schedule.at`, `the file at fields`. */
export function describePath(segments: readonly string[]): string {
  if (segments[0] === "projects" && segments.length >= 2) {
    const rest = dotted(segments.slice(2));
    return `project \`${segments[1]}\`${rest ? ` at ${rest}` : ""}`;
  }
  if (segments[0] === "templates" && segments.length >= 2) {
    const inInstance = segments[2] === "instances" && segments.length >= 4;
    const rest = dotted(segments.slice(inInstance ? 4 : 2));
    const what = inInstance
      ? `instance \`${segments[3]}\` of template \`${segments[1]}\``
      : `template \`${segments[1]}\``;
    return `${what}${rest ? ` at ${rest}` : ""}`;
  }
  if (segments.length === 0) return "the file";
  return `\`${dotted(segments)}\``;
}

function dotted(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), "");
}

function lastName(segments: readonly string[]): string {
  return segments[segments.length - 1] ?? "value";
}

function typeName(data: unknown): string {
  if (data === null) return "null";
  if (Array.isArray(data)) return "array";
  if (typeof data === "number") return Number.isInteger(data) ? "integer" : "number";
  return typeof data;
}

function article(type: string): string {
  switch (type) {
    case "object":
      return "a map";
    case "array":
      return "a list";
    case "null":
      return "empty";
    case "integer":
      return "an integer";
    default:
      return `a ${type}`;
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The fix that writes `value` in place of a misspelt key or value. */
function changeTo(value: string): DiagnosticFix {
  return { title: `Change to \`${value}\``, edit: "replace-text", text: value };
}
