/**
 * Builds one ProjectSpec from a schema-valid project and its file's defaults, with `locate` and
 * `locateInMessage` (and `locateInValue`) pointing at where each value was written (in `defaults` when inherited). Pure.
 */
import { type Document, isScalar, type Node } from "yaml";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import { interned } from "../message/memo.js";
import { capacityOf } from "./capacity-spec.js";
import { scalarValueMapper } from "./locate-in-message.js";
import { DEFAULT_GUARD_MIN_SAMPLE, type ProjectSpec, type ScheduleSpec, type SpecPath } from "./model.js";
import type { RawCampaignDocument, RawProjectKeys } from "./raw.js";
import { repliesOf } from "./replies-spec.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { findPath, type Span } from "./yaml-path.js";

export interface ProjectSource {
  readonly source: SourceText;
  readonly doc: Document;
  /** The project's map node and where its key (the address) is written. */
  readonly node: Node | undefined;
  readonly keySpan: Span;
  /** `keySpan` as a range, when the caller located it already (assemble.ts's declarations). */
  readonly keyRange?: SourceRange;
  /** The file's `defaults` map node, if any. */
  readonly defaultsNode: Node | undefined;
}

/** One empty list and map for every project without `after`, `fields` or `merge_defaults`. */
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_VALUES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Each `defaults` value's built form, by the raw value (schema-valid data, never changed): the
 * projects that inherit a `schedule` or `test` block share one object instead of a copy each, so
 * the memos keyed by it (schedule-times.ts) find it by identity, and 60,000 projects of one file
 * do not make 60,000 copies for the collector to move (issue 36).
 */
const builtFromDefaults = new WeakMap<object, unknown>();

/** `build(value)`, once per inherited raw value; a project's own value is built for it alone. */
function sharedWhenInherited<R extends object, T>(
  own: boolean,
  value: R | undefined,
  build: (value: R) => T,
): T | undefined {
  if (value === undefined) return undefined;
  if (own) return build(value);
  const known = builtFromDefaults.get(value);
  if (known !== undefined) return known as T;
  const built = build(value);
  builtFromDefaults.set(value, built);
  return built;
}

const hasOwn = (object: object | undefined, key: string) =>
  object !== undefined && Object.hasOwn(object, key);

/**
 * The node a top-level key of the project is written under: its own map (`node`), `defaults`
 * (`defaultsNode`), or none.
 */
function baseOf(
  raw: RawProjectKeys,
  defaults: RawProjectKeys | undefined,
  node: Node | undefined,
  defaultsNode: Node | undefined,
  top: string,
): Node | undefined {
  if (hasOwn(raw, top)) return node;
  if (hasOwn(defaults, top)) return defaultsNode;
  return undefined;
}

export function buildProjectSpec(
  address: string,
  raw: RawProjectKeys,
  file: RawCampaignDocument,
  where: ProjectSource,
): ProjectSpec {
  // `Object.assign`, not `{ ...defaults, ...raw }`: V8 (Node 20) runs a two-object spread on its
  // slow path, about 4 µs a project, most of the time spent here on 10,000 projects. The same
  // result: `raw` and `defaults` are schema-valid, so neither has a `__proto__` key to set.
  const merged: RawProjectKeys = Object.assign({}, file.defaults, raw);
  // The locators below keep what they read, not `where` (a record made for each project, with the
  // key's span) nor the file's whole data: fewer objects per project for the collector to move to
  // the old generation (issue 36).
  const { source, doc, node, defaultsNode } = where;
  const defaults = file.defaults;
  const keyRange = where.keyRange ?? rangeAt(source, where.keySpan[0], where.keySpan[1]);

  const locate = (path: SpecPath): SourceRange => {
    const top = path[0];
    const base = top === undefined ? undefined : baseOf(raw, defaults, node, defaultsNode, String(top));
    if (base === undefined) return keyRange;
    const hit = findPath(doc, base, path);
    const span = hit.value ?? hit.key;
    return span ? rangeAt(source, span[0], span[1]) : keyRange;
  };
  let mapMessage: ((start: number, end: number) => Span) | undefined;
  const locateInMessage = (start: number, end: number): SourceRange => {
    if (mapMessage === undefined) {
      const base = baseOf(raw, defaults, node, defaultsNode, "message");
      const message = base === undefined ? undefined : findPath(doc, base, ["message"]).node;
      if (!isScalar(message)) return locate(["message"]);
      mapMessage = scalarValueMapper(source.text, message);
    }
    const [from, to] = mapMessage(start, end);
    return rangeAt(source, from, to);
  };
  // Made at the first call: most projects never locate inside a value.
  let valueMappers: Map<string, ((start: number, end: number) => Span) | null> | undefined;
  const locateInValue = (path: SpecPath, start: number, end: number): SourceRange => {
    const key = JSON.stringify(path);
    valueMappers ??= new Map();
    let mapper = valueMappers.get(key);
    if (mapper === undefined) {
      const top = path[0];
      const base = top === undefined ? undefined : baseOf(raw, defaults, node, defaultsNode, String(top));
      const value = base === undefined ? undefined : findPath(doc, base, path).node;
      mapper = isScalar(value) ? scalarValueMapper(source.text, value) : null;
      valueMappers.set(key, mapper);
    }
    if (mapper === null) return locate(path);
    const [from, to] = mapper(start, end);
    return rangeAt(source, from, to);
  };

  const schedule = merged.schedule;
  const linkTracking = merged.link_tracking;
  return {
    address,
    file: source.file,
    id: merged.id ?? "",
    name: merged.name,
    type: merged.type ?? "broadcast",
    channel: merged.channel,
    organization: file.organization,
    brand: merged.brand,
    tenDlcCampaign: merged.campaign,
    tollFreeVerification: merged.toll_free_verification,
    phoneNumbers: merged.phone_numbers,
    // One string per distinct message (memo.ts): lint's memos keyed by it then find it by identity.
    message: merged.message === undefined ? undefined : interned(merged.message),
    media: merged.media,
    contactLists: merged.contact_lists,
    suppressionLists: merged.suppression_lists,
    linkTracking: linkTracking && {
      destinationUrl: linkTracking.destination_url,
      domain: linkTracking.domain,
      paramField: linkTracking.param_field,
      fallbackUrl: linkTracking.fallback_url,
    },
    optOutFooter: merged.opt_out_footer,
    state: merged.state ?? "draft",
    test: sharedWhenInherited(hasOwn(raw, "test"), merged.test, testOf),
    schedule: sharedWhenInherited(hasOwn(raw, "schedule"), schedule, scheduleOf),
    deadline: merged.deadline,
    capacity: capacityOf(file, doc, source),
    pause: merged.pause && { reason: merged.pause.reason },
    guard: merged.guard && {
      ...(merged.guard.max_failure_rate === undefined
        ? {}
        : { maxFailureRate: merged.guard.max_failure_rate }),
      ...(merged.guard.max_opt_out_rate === undefined
        ? {}
        : { maxOptOutRate: merged.guard.max_opt_out_rate }),
      minSample: merged.guard.min_sample ?? DEFAULT_GUARD_MIN_SAMPLE,
    },
    replies: merged.replies && repliesOf(merged.replies),
    after: merged.after ?? NO_NAMES,
    labels: merged.labels,
    mergeDefaults: file.merge_defaults ?? NO_VALUES,
    fields: file.fields ?? NO_NAMES,
    range: keyRange,
    locate,
    locateInMessage,
    locateInValue,
  };
}

function scheduleOf(schedule: NonNullable<RawProjectKeys["schedule"]>): ScheduleSpec {
  return {
    at: schedule.at,
    timezone: schedule.timezone,
    dailyCapBypass: schedule.daily_cap_bypass ?? false,
  };
}

function testOf(test: NonNullable<RawProjectKeys["test"]>): NonNullable<ProjectSpec["test"]> {
  return { contacts: test.contacts.map((c) => ({ phone: c.phone, mergeValues: c.merge_values })) };
}
