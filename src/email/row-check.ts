/**
 * Judges one CSV row of an email list before anything is sent: address syntax and the 320 limit,
 * consent_source's 255 limit, consent_at as a date-time with an offset, a repeat of an earlier row's
 * address, and (policy `require_email_consent`) missing consent. Pure: rows come in as strings with
 * their line; the CSV reading is the caller's (cli/email/csv-rows.ts).
 */

import { instantMs } from "../contract/instant.js";
import { CONSENT_SOURCE_MAX, EMAIL_MAX } from "../contract/limits.js";
import type { EmailContactInput } from "../contract/requests.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { nameMap } from "../text/names.js";
import { isEmailAddress } from "./address.js";
import type { CellProblem, CsvEncoding } from "./csv-text.js";
import type { DuplicateIndex } from "./duplicate-index.js";
import { DEFAULT_COLUMNS, type EmailListSpec } from "./model.js";

/**
 * consent_at as the contract's `date-time` (RFC 3339) reads it: seconds required, the offset `Z` or
 * `±HH:MM`. instantMs alone reads more (no seconds, `+0530`), which the API rejects.
 */
const SENT_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Where a record sits in its CSV file. Invariant: 1-based lines, `firstLine <= lastLine`; `offset` is the byte offset of its start. */
export interface CsvPlace {
  readonly firstLine: number;
  readonly lastLine: number;
  readonly offset: number;
}

/** The columns of a CSV file, by index. Built once from the header by {@link readHeader}. */
export interface HeaderPlan {
  readonly email: number;
  readonly consentSource: number;
  readonly consentAt: number;
  /** Merge field name -> column index. */
  readonly fields: readonly (readonly [string, number])[];
  /** The header's names, by column (trimmed), to name a column in a finding. */
  readonly names: readonly string[];
}

/** A row that will be sent, or one refused before any request with its reasons. */
export type RowVerdict =
  | { readonly kind: "send"; readonly line: number; readonly contact: EmailContactInput }
  | {
      readonly kind: "refuse";
      readonly line: number;
      readonly email: string;
      readonly diagnostics: readonly Diagnostic[];
    };

export function csvRange(file: string, place: CsvPlace): SourceRange {
  return {
    file,
    start: { line: place.firstLine, column: 1, offset: place.offset },
    end: { line: place.lastLine, column: 1, offset: place.offset },
  };
}

/** The column plan of a header, or the diagnostics that say which column is missing. */
export function readHeader(
  header: readonly string[],
  list: EmailListSpec,
):
  | { readonly ok: true; readonly plan: HeaderPlan }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] } {
  const names = header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, "") : h).trim());
  const at = (name: string): number => names.indexOf(name);
  const missing: Diagnostic[] = [];
  const need = (name: string, what: string): number => {
    const i = at(name);
    if (i < 0)
      missing.push({
        severity: "error",
        code: "email.csv-column-missing",
        message: `${list.csvPath}: the header has no column "${name}" (${what})`,
        range: csvRange(list.csvPath, { firstLine: 1, lastLine: 1, offset: 0 }),
        hint: `the header is: ${names.join(", ")}; name the column under email_lists.${list.address}.columns`,
      });
    return i;
  };
  const mapped = [list.columns.email, list.columns.consent_source, list.columns.consent_at];
  if (new Set(mapped).size < mapped.length)
    // One column read as two (the address as its own consent): a file must not satisfy consent so.
    missing.push({
      severity: "error",
      code: "email.csv-column-missing",
      message: `email_lists.${list.address}.columns maps two standard columns to one header (${mapped.join(", ")})`,
      range: list.range,
      hint: "email, consent_source and consent_at each need their own column",
    });
  const read = new Set([...mapped, ...(list.fields ?? names)]);
  for (const name of new Set(names))
    if (name !== "" && read.has(name) && names.indexOf(name) !== names.lastIndexOf(name))
      // Two columns of one name: which one holds the address (or the consent) would be a guess.
      missing.push({
        severity: "error",
        code: "email.csv-malformed",
        message: `${list.csvPath}: the header names the column "${name}" ${names.filter((n) => n === name).length} times`,
        range: csvRange(list.csvPath, { firstLine: 1, lastLine: 1, offset: 0 }),
        hint: "give each column its own header",
      });
  const email = need(list.columns.email, "the address");
  // A consent column the file's columns: names must be there (a missing one would drop consent),
  // and so must a default one the header spells nearly so (`Consent Source`): else it went as a merge field.
  const squash = (n: string): string => n.toLowerCase().replace(/[^a-z0-9]/g, "");
  const consent = (name: string, fallback: string): number =>
    name !== fallback || names.some((n) => n !== name && squash(n) === squash(name))
      ? need(name, `${fallback}${name === fallback ? "" : ", named under columns"}`)
      : at(name);
  const consentSource = consent(list.columns.consent_source, DEFAULT_COLUMNS.consent_source);
  const consentAt = consent(list.columns.consent_at, DEFAULT_COLUMNS.consent_at);
  const standard = new Set([list.columns.email, list.columns.consent_source, list.columns.consent_at]);
  const fields: (readonly [string, number])[] = [];
  if (list.fields !== undefined) {
    for (const f of list.fields) {
      const i = need(f, "a merge field named under fields");
      if (i >= 0) fields.push([f, i]);
    }
  } else
    names.forEach((n, i) => {
      if (!standard.has(n) && n !== "") fields.push([n, i]);
    });
  if (missing.length > 0) return { ok: false, diagnostics: missing };
  return { ok: true, plan: { email, consentSource, consentAt, fields, names } };
}

/** The judgement of one record. `seen` remembers every address of the file so far. */
export function checkRow(
  record: readonly string[],
  place: CsvPlace,
  plan: HeaderPlan,
  list: EmailListSpec,
  requireConsent: boolean,
  seen: DuplicateIndex,
): RowVerdict {
  const range = csvRange(list.csvPath, place);
  const line = place.firstLine;
  const problems: Diagnostic[] = [];
  const problem = (code: Diagnostic["code"], message: string, hint: string): void => {
    problems.push({ severity: "error", code, message: `line ${line}: ${message}`, range, hint });
  };
  const cell = (i: number): string => (i < 0 ? "" : (record[i] ?? "").trim());
  const email = cell(plan.email);
  if (email.length > EMAIL_MAX)
    problem(
      "email.address-too-long",
      `the address is ${email.length} characters, over ${EMAIL_MAX}`,
      "fix or remove the row",
    );
  else if (!isEmailAddress(email))
    problem(
      "email.invalid-address",
      email === "" ? "the address is empty" : `"${email}" is not a valid email address`,
      "fix or remove the row",
    );
  else {
    const first = seen.firstLine(email, line);
    if (first !== undefined)
      problem(
        "email.duplicate-row",
        `"${email}" repeats the address of line ${first}`,
        "keep one row per address",
      );
  }
  const source = cell(plan.consentSource);
  const consentAt = cell(plan.consentAt);
  if (source.length > CONSENT_SOURCE_MAX)
    problem(
      "email.consent-source-too-long",
      `consent_source is ${source.length} characters, over ${CONSENT_SOURCE_MAX}`,
      "shorten it",
    );
  if (consentAt !== "" && (!SENT_DATE_TIME.test(consentAt) || instantMs(consentAt) === undefined))
    problem(
      "email.invalid-consent-at",
      `consent_at "${consentAt}" is not a date-time with an offset`,
      "write it as 2026-03-01T09:30:00Z or 2026-03-01T09:30:00-05:00",
    );
  if (requireConsent && (source === "" || consentAt === ""))
    problem(
      "policy.require-email-consent",
      `no ${source === "" ? (consentAt === "" ? "consent_source and consent_at" : "consent_source") : "consent_at"}, which the policy requires`,
      "record where and when this person consented, or remove the row; it is not sent",
    );
  if (problems.length > 0) return { kind: "refuse", line, email, diagnostics: problems };
  const fields = nameMap<string>();
  for (const [name, i] of plan.fields) {
    const v = record[i];
    if (v !== undefined && v !== "") fields[name] = v;
  }
  return {
    kind: "send",
    line,
    contact: {
      email,
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
      ...(source === "" ? {} : { consent_source: source }),
      ...(consentAt === "" ? {} : { consent_at: consentAt }),
    },
  };
}

/** The hint of every encoding finding: how to get UTF-8 out of the tools that write CSV files. */
const TO_UTF8 =
  'campaignctl reads CSV files as UTF-8: export the list as "CSV UTF-8" (Excel: Save As > CSV UTF-8 (Comma delimited); Google Sheets writes UTF-8), or convert it';

/** The command that converts `path` from `encoding` to UTF-8, into a file beside it. */
function iconv(encoding: string, path: string): string {
  const out = path.replace(/(\.csv)?$/i, "-utf8.csv");
  return `iconv -f ${encoding} -t UTF-8 ${path} > ${out}, then name ${out} under csv: (or move it over the original)`;
}

/** The refusal of a row a cell of which is not UTF-8 text (invalid bytes, a NUL byte). */
export function encodingRefusal(
  problem: CellProblem,
  text: readonly string[],
  place: CsvPlace,
  plan: HeaderPlan,
  list: EmailListSpec,
): RowVerdict {
  const line = place.firstLine;
  const column = plan.names[problem.column] ?? `${problem.column + 1}`;
  const byte = `0x${problem.byte.toString(16).toUpperCase().padStart(2, "0")}`;
  const what =
    problem.kind === "nul"
      ? `holds a NUL byte (at byte ${problem.at + 1} of the value)`
      : `is not valid UTF-8 (byte ${byte} at byte ${problem.at + 1} of the value)`;
  return {
    kind: "refuse",
    line,
    email: (text[plan.email] ?? "").trim(),
    diagnostics: [
      {
        severity: "error",
        code: "email.csv-encoding",
        message: `line ${line}, column "${column}": the value ${what}; the row is not sent`,
        range: csvRange(list.csvPath, place),
        hint:
          problem.kind === "nul"
            ? "remove the NUL byte (a CSV holds text only; a NUL often means a UTF-16 or binary file)"
            : `${TO_UTF8} (a file saved as Windows-1252 or Latin-1: ${iconv("WINDOWS-1252", list.csvPath)})`,
      },
    ],
  };
}

/** The header row holds a cell that is not UTF-8 text: the file's columns cannot be known. */
export function headerEncoding(problem: CellProblem, list: EmailListSpec, place: CsvPlace): Diagnostic {
  return {
    severity: "error",
    code: "email.csv-encoding",
    message: `${list.csvPath}: the header's column ${problem.column + 1} ${problem.kind === "nul" ? "holds a NUL byte" : "is not valid UTF-8"}: the list is not read`,
    range: csvRange(list.csvPath, place),
    hint: TO_UTF8,
  };
}

/** The file is UTF-16 (found from its first bytes): it is not read. */
export function utf16File(
  encoding: Extract<CsvEncoding, { kind: "utf-16" }>,
  list: EmailListSpec,
): Diagnostic {
  const from = encoding.bom ? "UTF-16" : encoding.order === "little-endian" ? "UTF-16LE" : "UTF-16BE";
  return {
    severity: "error",
    code: "email.csv-encoding",
    message: `${list.csvPath} (email list ${list.address}) is UTF-16 (${encoding.order}, ${encoding.bom ? "with" : "without"} a byte-order mark): campaignctl reads CSV files as UTF-8, so the list is not read`,
    range: list.csvRange,
    hint: `${TO_UTF8}: ${iconv(from, list.csvPath)} (Excel's "Unicode Text" is UTF-16)`,
  };
}
