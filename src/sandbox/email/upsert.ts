/**
 * Bulk upsert of email contacts into a list (POST /email/lists/{id}/contacts). Each row is judged
 * on its own: rejected (reason given), duplicate (the same address, case-insensitive, as an earlier
 * accepted row of the request) or accepted. Accepted rows are written: a new address is appended,
 * a known one (case-insensitive) is updated (fields merged, consent replaced when given, extra
 * properties kept). A suppressed address is accepted and written but stays suppressed; its row
 * says so in `reason`.
 */
import { CONSENT_SOURCE_MAX, EMAIL_MAX } from "../../contract/limits.js";
import type { BulkUpsertResult, BulkUpsertRow } from "../../contract/resources.js";
import { parseDateTime } from "../conversations/find.js";
import type { EmailListRecord } from "../state/world.js";
import { indexAppend, listIndex } from "./list-index.js";

export const SUPPRESSED_REASON =
  "suppressed address: written, but it stays suppressed and will not be mailed";

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Addresses as a mail system accepts them: dot-atom local part (at most 64) @ a DNS name. */
export function validEmailSyntax(email: string): boolean {
  const at = email.lastIndexOf("@");
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return local.length <= 64 && LOCAL.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}

type Row = Record<string, unknown>;
type Verdict =
  | { readonly ok: true; readonly email: string }
  | { readonly ok: false; readonly reason: string };

function isPlainObject(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function judge(row: unknown): Verdict {
  if (!isPlainObject(row)) return { ok: false, reason: "row must be an object" };
  const raw = row.email;
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "email is required" };
  const email = raw.trim();
  if (email.length > EMAIL_MAX)
    return { ok: false, reason: `too long: email is at most ${EMAIL_MAX} characters` };
  if (!validEmailSyntax(email)) return { ok: false, reason: "invalid email syntax" };
  if (row.fields !== undefined && !isPlainObject(row.fields))
    return { ok: false, reason: "fields must be an object" };
  const source = row.consent_source;
  if (source !== undefined && (typeof source !== "string" || source.length > CONSENT_SOURCE_MAX))
    return {
      ok: false,
      reason: `consent_source must be a string of at most ${CONSENT_SOURCE_MAX} characters`,
    };
  const consentAt = row.consent_at;
  if (consentAt !== undefined && (typeof consentAt !== "string" || parseDateTime(consentAt) === undefined))
    return { ok: false, reason: "consent_at must be a date-time with offset" };
  return { ok: true, email };
}

/** Applies the rows to `list` (call inside `store.mutate`) and returns the contract's result. */
export function upsertContacts(
  list: EmailListRecord,
  rows: readonly unknown[],
  suppressed: ReadonlySet<string>,
): BulkUpsertResult {
  const firstRow = new Map<string, number>();
  const results: BulkUpsertRow[] = [];
  rows.forEach((row, index) => {
    const given = isPlainObject(row) && typeof row.email === "string" ? row.email : "";
    const verdict = judge(row);
    if (!verdict.ok) {
      results.push({ index, email: given, status: "rejected", reason: verdict.reason });
      return;
    }
    const key = verdict.email.toLowerCase();
    const earlier = firstRow.get(key);
    if (earlier !== undefined) {
      results.push({ index, email: given, status: "duplicate", reason: `duplicate of row ${earlier}` });
      return;
    }
    firstRow.set(key, index);
    write(list, key, verdict.email, row as Row);
    results.push({
      index,
      email: given,
      status: "accepted",
      reason: suppressed.has(key) ? SUPPRESSED_REASON : null,
    });
  });
  const count = (s: BulkUpsertRow["status"]): number => results.filter((r) => r.status === s).length;
  const accepted = count("accepted");
  return {
    written: accepted,
    accepted,
    rejected: count("rejected"),
    duplicates: count("duplicate"),
    results,
  };
}

/** Writes one accepted row: O(1) through the list's index (see `list-index.ts`). */
function write(list: EmailListRecord, key: string, email: string, row: Row): void {
  const { email: _email, fields, consent_source, consent_at, ...extra } = row;
  const at = listIndex(list.contacts).get(key);
  const existing = at === undefined ? undefined : list.contacts[at];
  if (existing === undefined) {
    list.contacts.push({
      email,
      fields: isPlainObject(fields) ? { ...fields } : {},
      consent_source: typeof consent_source === "string" ? consent_source : null,
      consent_at: typeof consent_at === "string" ? new Date(consent_at).toISOString() : null,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    });
    indexAppend(list.contacts, key);
    return;
  }
  existing.email = email;
  if (isPlainObject(fields)) existing.fields = { ...existing.fields, ...fields };
  if (typeof consent_source === "string") existing.consent_source = consent_source;
  if (typeof consent_at === "string") existing.consent_at = new Date(consent_at).toISOString();
  if (Object.keys(extra).length > 0) existing.extra = { ...existing.extra, ...extra };
}
