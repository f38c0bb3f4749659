/**
 * Every independent finding in one run (issue 24): a schema error in one key must not hide the
 * findings about the keys beside it. From a file's schema errors, which keys cannot be trusted (per
 * project, in `defaults`, at the top of the file); a project with such keys is still checked on a
 * copy without them (`partial`), and a finding on it is kept only when every key its code reads is
 * trusted (`FINDING_READS`), so that a broken key never causes a second, misleading finding
 * ("no schedule block" for a schedule with a typo in it). Pure.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { didYouMean } from "../text/did-you-mean.js";
import { campaignSchema } from "./schema.js";
import { pointerSegments } from "./yaml-path.js";

/** The keys of a project (and of `defaults`) and of a file's top, read once from the schema itself. */
let schemaKeys: { readonly project: readonly string[]; readonly file: readonly string[] } | undefined;

function keysOfSchema(): { readonly project: readonly string[]; readonly file: readonly string[] } {
  if (schemaKeys === undefined) {
    const schema = campaignSchema() as {
      readonly properties: Record<string, unknown>;
      readonly $defs: { readonly projectKeys: { readonly properties: Record<string, unknown> } };
    };
    schemaKeys = {
      project: Object.keys(schema.$defs.projectKeys.properties),
      file: Object.keys(schema.properties),
    };
  }
  return schemaKeys;
}

/** The keys of a project (and of `defaults`), as the schema lists them. */
export function projectKeys(): readonly string[] {
  return keysOfSchema().project;
}

/** Untrusted keys of one scope: some keys, or every key (`"all"`: the scope's value is not even a map). */
export type Untrusted = ReadonlySet<string> | "all";

/**
 * Which keys a file's schema errors make untrustworthy. Invariant: `fileWide` is true exactly when
 * no project can be checked at all (the file is not a map, `version` is wrong or `projects` is not a
 * map). A misspelt key (`shedule`) also makes the key it was meant to be untrusted (`schedule`),
 * unless the same map holds that key too.
 */
export interface KeyTrust {
  readonly fileWide: boolean;
  /** Top-level keys: `merge_defaults`, `fields`, `capacity`, `organization`. */
  readonly file: ReadonlySet<string>;
  readonly defaults: Untrusted;
  readonly projects: ReadonlyMap<string, Untrusted>;
  /** Some error is outside every project (top level or `defaults`). */
  readonly outsideProjects: boolean;
  /**
   * Templates with schema errors: `"all"` when the template itself (its message, its shared keys)
   * is in error, else the instances that are; `*` names every template (`templates:` is not a map).
   * Errors in templates leave the file's projects trusted.
   */
  readonly templates: ReadonlyMap<string, Untrusted>;
}

type SchemaError = Pick<ErrorObject, "instancePath" | "keyword" | "params"> & {
  readonly propertyName?: string;
};

function add(map: Map<string, Set<string> | "all">, key: string, value: string | "all"): void {
  const current = map.get(key);
  if (current === "all") return;
  if (value === "all") map.set(key, "all");
  else map.set(key, new Set([...(current ?? []), value]));
}

/**
 * The key an unknown key was meant to be, and the unknown key itself; the meant key only when the
 * map does not also hold it (`mesage` beside a `message` leaves that `message` to be judged).
 */
function misspelt(error: SchemaError, known: readonly string[], data: unknown): string[] {
  const unknown =
    error.keyword === "additionalProperties" ? String(error.params.additionalProperty) : undefined;
  if (unknown === undefined) return [];
  const meant = didYouMean(unknown, known);
  if (meant === undefined) return [unknown];
  const map = valueAt(data, pointerSegments(error.instancePath));
  const present = typeof map === "object" && map !== null && !Array.isArray(map) && Object.hasOwn(map, meant);
  return present ? [unknown] : [unknown, meant];
}

/** The value at `path` in `data`, or undefined. */
function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[String(segment)];
  }
  return value;
}

/**
 * `data`: the file's data the errors are about (when given, a misspelt key beside the key it was
 * meant to be does not make that key untrusted).
 */
export function keyTrust(errors: readonly SchemaError[], data?: unknown): KeyTrust {
  let fileWide = false;
  let outsideProjects = false;
  const file = new Set<string>();
  const scopes = new Map<string, Set<string> | "all">();
  const projects = new Map<string, Set<string> | "all">();
  const templates = new Map<string, Set<string> | "all">();
  for (const error of errors) {
    const [top, second, third] = pointerSegments(error.instancePath).map(String);
    if (top === undefined) {
      outsideProjects = true;
      if (error.keyword !== "additionalProperties") fileWide = true; // not a map, or no version
      for (const key of misspelt(error, keysOfSchema().file, data)) {
        if (key === "defaults") add(scopes, "defaults", "all");
        else if (key === "projects") fileWide = true;
        else file.add(key);
      }
    } else if (top === "projects") {
      if (second === undefined) {
        const name =
          error.propertyName ??
          (error.keyword === "propertyNames" ? String(error.params.propertyName) : undefined);
        if (name !== undefined) add(projects, name, "all");
        else fileWide = true; // `projects` is not a map
      } else if (third !== undefined) add(projects, second, third);
      else if (error.keyword === "additionalProperties")
        for (const key of misspelt(error, projectKeys(), data)) add(projects, second, key);
      else if (error.keyword === "required") add(projects, second, String(error.params.missingProperty));
      else add(projects, second, "all");
    } else if (top === "templates") {
      const name =
        second ??
        error.propertyName ??
        (error.keyword === "propertyNames" ? String(error.params.propertyName) : "*");
      const fourth = pointerSegments(error.instancePath).map(String)[3];
      if (second !== undefined && third === "instances" && fourth !== undefined) add(templates, name, fourth);
      else add(templates, name, "all");
    } else if (top === "defaults") {
      outsideProjects = true;
      if (second !== undefined) add(scopes, "defaults", second);
      else if (error.keyword === "additionalProperties")
        for (const key of misspelt(error, projectKeys(), data)) add(scopes, "defaults", key);
      else add(scopes, "defaults", "all");
    } else {
      outsideProjects = true;
      if (top === "version") fileWide = true;
      else file.add(top);
    }
  }
  return {
    fileWide,
    file,
    defaults: scopes.get("defaults") ?? new Set(),
    projects,
    outsideProjects,
    templates,
  };
}

/**
 * The keys a project cannot trust: its own untrusted keys, the untrusted `defaults` keys it does not
 * set itself (it would inherit them), and the file's. Null when the project is not checked at all.
 */
export function projectUntrusted(
  trust: KeyTrust,
  address: string,
  ownKeys: readonly string[],
): ReadonlySet<string> | null {
  const own = trust.projects.get(address);
  if (trust.fileWide || own === "all") return null;
  const out = new Set<string>([...(own ?? []), ...trust.file]);
  const set = new Set(ownKeys.filter((k) => !out.has(k)));
  for (const key of trust.defaults === "all" ? projectKeys() : trust.defaults)
    if (!set.has(key)) out.add(key);
  return out;
}

/**
 * The keys each finding reads, by code: project keys, and `merge_defaults` and `fields` of the file.
 * On a project with untrusted keys a finding is kept only when its code is listed here and reads
 * none of them; a code that is not listed is not shown for such a project (a check added later
 * stays quiet there until it is listed, instead of misleading).
 */
export const FINDING_READS: Partial<Readonly<Record<DiagnosticCode, readonly string[]>>> = {
  "campaign.test-phone-not-nanp": ["test"],
  "campaign.test-phone-repeated": ["test"],
  "campaign.guard-without-rate": ["guard"],
  "campaign.schedule-missing": ["state", "schedule"],
  "campaign.message-missing": ["state", "message"],
  "campaign.contact-lists-missing": ["state", "contact_lists"],
  "campaign.channel-mismatch": ["channel", "campaign", "toll_free_verification"],
  "message.unclosed-tag": ["message"],
  "message.stray-close": ["message"],
  "message.empty-tag-name": ["message"],
  "message.invalid-tag-name": ["message"],
  "message.unknown-tag": ["message", "fields"],
  "message.tag-may-render-empty": ["message", "merge_defaults", "fields"],
  "lint.invisible-character": ["message", "replies"],
  "lint.bidi-control": ["message", "replies"],
  "lint.non-gsm-character": ["message", "media", "merge_defaults", "opt_out_footer", "replies"],
  "lint.opt-out-missing": ["message", "opt_out_footer", "merge_defaults"],
  "lint.url-shortener": ["message", "replies"],
  "lint.segment-growth": ["message", "media", "test", "merge_defaults", "opt_out_footer", "replies"],
  "lint.link-tracking-not-https": ["link_tracking"],
  "lint.link-tracking-fallback-required": ["link_tracking", "fields"],
  "lint.link-tracking-unknown-param-field": ["link_tracking", "fields"],
  "lint.schedule-in-past": ["state", "schedule"],
  "lint.schedule-offset-mismatch": ["schedule"],
  "lint.quiet-hours": ["schedule"],
  "lint.daily-cap-bypass": ["schedule"],
  "lint.guard-zero-rate": ["guard"],
  "lint.guard-rate-never-trips": ["guard"],
  "forecast.deadline-before-schedule": ["deadline", "schedule"],
  "replies.rule-matches-opt-out": ["replies"],
  "replies.rule-needs-one-match": ["replies"],
  "replies.pattern-invalid": ["replies"],
  "replies.pattern-unsupported": ["replies"],
  "replies.pattern-too-large": ["replies"],
  "replies.keyword-empty": ["replies"],
  "replies.rule-name-repeated": ["replies"],
  "replies.rule-unreachable": ["replies"],
  "replies.answer-has-merge-tag": ["replies"],
  "replies.answer-too-long": ["replies"],
  "replies.answer-segments": ["replies"],
};

/** Is a finding with `code` sound on a project that cannot trust `untrusted`? */
export function findingTrusted(
  code: DiagnosticCode,
  untrusted: ReadonlySet<string>,
  reads: Partial<Readonly<Record<string, readonly string[]>>> = FINDING_READS,
): boolean {
  const keys = reads[code];
  return keys?.every((k) => !untrusted.has(k)) === true;
}
