/**
 * Reads `email_lists:` and `email_campaigns:` out of campaign files, with where each value is
 * written. Pure: the CSV files are only named here (cli/email reads them). The schema has already
 * judged the files (validate reports its errors); an entry of the wrong shape is left out here.
 */
import { posix } from "node:path";
import { isMap } from "yaml";
import type { CampaignFile } from "../campaign/model.js";
import { parseCampaignFile } from "../campaign/parse-yaml.js";
import { rangeAt, type SourceText } from "../campaign/source-range.js";
import { findPath } from "../campaign/yaml-path.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import {
  type ColumnMapping,
  DEFAULT_COLUMNS,
  type EmailCampaignSpec,
  type EmailGuardSpec,
  type EmailListSpec,
  type EmailSpecs,
} from "./model.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const strings = (v: unknown): readonly string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** The email parts of every file, in file order. */
export function emailSpecsOf(files: readonly CampaignFile[]): EmailSpecs {
  const lists: EmailListSpec[] = [];
  const campaigns: EmailCampaignSpec[] = [];
  for (const file of files) {
    // A cheap filter only: the key may be quoted ("email_lists": ...), so no colon is required here.
    if (!/email_(lists|campaigns)/.test(file.text)) continue;
    const parsed = parseCampaignFile(file);
    const doc = parsed.doc;
    if (doc === undefined || !parsed.usable || !isMap(doc.contents)) continue;
    const data: unknown = doc.toJS({ maxAliasCount: 100 });
    if (!isObj(data)) continue;
    const source = parsed.source;
    const where = (path: readonly (string | number)[]): SourceRange => {
      const hit = findPath(doc, doc.contents, path);
      const span = hit.value ?? hit.key ?? [0, 0];
      return rangeAt(source, span[0], span[1]);
    };
    const keyOf = (path: readonly (string | number)[]): SourceRange => {
      const hit = findPath(doc, doc.contents, path);
      const span = hit.key ?? hit.value ?? [0, 0];
      return rangeAt(source, span[0], span[1]);
    };
    const organization = str(data.organization);
    if (isObj(data.email_lists))
      for (const [address, raw] of Object.entries(data.email_lists)) {
        const spec = listSpec(file, source, address, raw, organization, where, keyOf);
        if (spec !== undefined) lists.push(spec);
      }
    if (isObj(data.email_campaigns))
      for (const [address, raw] of Object.entries(data.email_campaigns)) {
        const spec = campaignSpec(file, address, raw, organization, where, keyOf);
        if (spec !== undefined) campaigns.push(spec);
      }
  }
  return { lists, campaigns };
}

function listSpec(
  file: CampaignFile,
  _source: SourceText,
  address: string,
  raw: unknown,
  organization: string | undefined,
  where: (path: readonly (string | number)[]) => SourceRange,
  keyOf: (path: readonly (string | number)[]) => SourceRange,
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
    file: file.path,
    id,
    ...(name === undefined ? {} : { name }),
    csv,
    csvPath: csvPathOf(file.path, csv),
    columns,
    ...(fields === undefined ? {} : { fields }),
    ...(organization === undefined ? {} : { organization }),
    range: keyOf(["email_lists", address]),
    csvRange: where(["email_lists", address, "csv"]),
    idRange: where(["email_lists", address, "id"]),
  };
}

/** The CSV's path as the campaign file's own path is written: relative to its directory, or absolute. */
export function csvPathOf(campaignFile: string, csv: string): string {
  const p = csv.replaceAll("\\", "/");
  if (posix.isAbsolute(p)) return p;
  return posix.normalize(posix.join(posix.dirname(campaignFile.replaceAll("\\", "/")), p));
}

function campaignSpec(
  file: CampaignFile,
  address: string,
  raw: unknown,
  organization: string | undefined,
  where: (path: readonly (string | number)[]) => SourceRange,
  keyOf: (path: readonly (string | number)[]) => SourceRange,
): EmailCampaignSpec | undefined {
  if (!isObj(raw)) return undefined;
  const id = str(raw.id);
  const name = str(raw.name);
  if (id === undefined && name === undefined) return undefined;
  const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
  const at = isObj(raw.schedule) ? str(raw.schedule.at) : undefined;
  const guard = isObj(raw.guard) ? guardSpec(raw.guard) : undefined;
  const range = keyOf(["email_campaigns", address]);
  return {
    address,
    file: file.path,
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
    ...optional("schedule", at === undefined ? undefined : { at }),
    ...optional("guard", guard),
    ...optional("organization", organization),
    range,
    locate: (key) => (key in raw ? where(["email_campaigns", address, key]) : range),
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
 * would overwrite each other's rows), with an error at its key.
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
