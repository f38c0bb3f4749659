/**
 * Decodes a campaign file's `email_lists:` and `email_campaigns:` into the campaign model, with where
 * each value is written: part of the one loader (assemble.ts), from the same parsed document and
 * data as the file's projects. Pure: the CSV files are only named here. An entry with a schema error
 * (which validate reports) is left out; so is every entry when the section itself is not a map.
 * Across files, two entries naming one live list keep the first (`repeatedLists`).
 */
import { posix } from "node:path";
import type { Document } from "yaml";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import {
  type ColumnMapping,
  DEFAULT_COLUMNS,
  type EmailCampaignSpec,
  type EmailGuardSpec,
  type EmailListSpec,
  type EmailSpecs,
} from "./email-model.js";
import { rangeAt, type SourceText } from "./source-range.js";
import { findPath, pointerSegments } from "./yaml-path.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const strings = (v: unknown): readonly string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** Where the file's values are: its document and text. */
export interface EmailSource {
  readonly doc: Document;
  readonly source: SourceText;
}

/**
 * The email entries of one file. `data` is the file's data (`doc.toJS()`); `errorPaths` the
 * `instancePath` of each schema error of the file: entries under one are left out.
 */
export function decodeEmail(data: unknown, errorPaths: readonly string[], where: EmailSource): EmailSpecs {
  if (!isObj(data) || (data.email_lists === undefined && data.email_campaigns === undefined))
    return { lists: [], campaigns: [] };
  const broken = new Set<string>();
  for (const path of errorPaths) {
    const [section, address] = pointerSegments(path).map(String);
    if (section === "email_lists" || section === "email_campaigns")
      broken.add(`${section}/${address ?? "*"}`);
  }
  const kept = (section: string, address: string) =>
    !broken.has(`${section}/*`) && !broken.has(`${section}/${address}`);
  const { doc, source } = where;
  const file = source.file;
  const at = (path: readonly (string | number)[], key: boolean): SourceRange => {
    const hit = findPath(doc, doc.contents, path);
    const span = (key ? (hit.key ?? hit.value) : (hit.value ?? hit.key)) ?? [0, 0];
    return rangeAt(source, span[0], span[1]);
  };
  const organization = str(data.organization);
  const lists: EmailListSpec[] = [];
  const campaigns: EmailCampaignSpec[] = [];
  if (isObj(data.email_lists))
    for (const [address, raw] of Object.entries(data.email_lists)) {
      if (!kept("email_lists", address)) continue;
      const spec = listSpec(file, address, raw, organization, at);
      if (spec !== undefined) lists.push(spec);
    }
  if (isObj(data.email_campaigns))
    for (const [address, raw] of Object.entries(data.email_campaigns)) {
      if (!kept("email_campaigns", address)) continue;
      const spec = campaignSpec(file, address, raw, organization, at);
      if (spec !== undefined) campaigns.push(spec);
    }
  return { lists, campaigns };
}

type At = (path: readonly (string | number)[], key: boolean) => SourceRange;

function listSpec(
  file: string,
  address: string,
  raw: unknown,
  organization: string | undefined,
  at: At,
): EmailListSpec | undefined {
  if (!isObj(raw)) return undefined;
  const id = str(raw.id);
  const csv = str(raw.csv);
  if (id === undefined || csv === undefined) return undefined;
  const columns: ColumnMapping = isObj(raw.columns)
    ? {
        email: str(raw.columns.email) ?? DEFAULT_COLUMNS.email,
        consent_source: str(raw.columns.consent_source) ?? DEFAULT_COLUMNS.consent_source,
        consent_at: str(raw.columns.consent_at) ?? DEFAULT_COLUMNS.consent_at,
      }
    : DEFAULT_COLUMNS;
  const fields = strings(raw.fields);
  const name = str(raw.name);
  return {
    address,
    file,
    id,
    ...(name === undefined ? {} : { name }),
    csv,
    csvPath: csvPathOf(file, csv),
    columns,
    ...(fields === undefined ? {} : { fields }),
    ...(organization === undefined ? {} : { organization }),
    range: at(["email_lists", address], true),
    csvRange: at(["email_lists", address, "csv"], false),
    idRange: at(["email_lists", address, "id"], false),
  };
}

/** The CSV's path as the campaign file's own path is written: relative to its directory, or absolute. */
export function csvPathOf(campaignFile: string, csv: string): string {
  const p = csv.replaceAll("\\", "/");
  if (posix.isAbsolute(p)) return p;
  return posix.normalize(posix.join(posix.dirname(campaignFile.replaceAll("\\", "/")), p));
}

function campaignSpec(
  file: string,
  address: string,
  raw: unknown,
  organization: string | undefined,
  at: At,
): EmailCampaignSpec | undefined {
  if (!isObj(raw)) return undefined;
  const id = str(raw.id);
  const name = str(raw.name);
  if (id === undefined && name === undefined) return undefined;
  const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
  const scheduled = isObj(raw.schedule) ? str(raw.schedule.at) : undefined;
  const guard = isObj(raw.guard) ? guardSpec(raw.guard) : undefined;
  const keyRanges = Object.fromEntries(
    Object.keys(raw).map((key) => [key, at(["email_campaigns", address, key], false)]),
  );
  return {
    address,
    file,
    ...optional("id", id),
    ...optional("name", name),
    ...optional("lists", strings(raw.lists)),
    ...optional("suppressionLists", strings(raw.suppression_lists)),
    ...optional("sender", str(raw.sender)),
    ...optional("sendingDomain", str(raw.sending_domain)),
    ...optional("timezone", str(raw.timezone)),
    ...optional(
      "requireApproval",
      typeof raw.require_approval === "boolean" ? raw.require_approval : undefined,
    ),
    ...optional("schedule", scheduled === undefined ? undefined : { at: scheduled }),
    ...optional("guard", guard),
    ...optional("organization", organization),
    range: at(["email_campaigns", address], true),
    keyRanges,
  };
}

function guardSpec(raw: Obj): EmailGuardSpec {
  const optional = <K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, number>>;
  return {
    ...optional("maxBounceRate", num(raw.max_bounce_rate)),
    ...optional("maxComplaintRate", num(raw.max_complaint_rate)),
    ...optional("maxUnsubscribeRate", num(raw.max_unsubscribe_rate)),
    minSample: num(raw.min_sample) ?? 100,
  };
}

/**
 * Two entries naming one live list: the later one is left out (one CSV per list, else two files
 * would overwrite each other's rows), with an error at its key. The check across files.
 */
export function repeatedLists(specs: EmailSpecs): {
  readonly specs: EmailSpecs;
  readonly diagnostics: readonly Diagnostic[];
} {
  const first = new Map<string, EmailListSpec>();
  const lists: EmailListSpec[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const l of specs.lists) {
    const earlier = first.get(l.id);
    if (earlier === undefined) {
      first.set(l.id, l);
      lists.push(l);
      continue;
    }
    diagnostics.push({
      severity: "error",
      code: "email.list-repeated",
      message: `email list ${l.address} names the list ${l.id}, which ${earlier.address} names already`,
      range: l.range,
      related: [{ message: `${earlier.address} is here`, range: earlier.range }],
      hint: "one entry per list: merge the CSV files, or correct the id",
    });
  }
  return { specs: { ...specs, lists }, diagnostics };
}
