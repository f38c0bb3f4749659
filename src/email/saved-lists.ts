/**
 * The email lists of a saved plan (`plan --out`), checked before `apply PLANFILE` syncs them. A
 * saved plan records per list its id, CSV path, the CSV's sha256 and its row counts; `apply
 * PLANFILE` syncs a list only when its CSV is the one reviewed (same bytes) and the list made again
 * now is the one reviewed (same id, CSV, state and counts). Any difference refuses the whole saved
 * plan, as a changed campaign file does (docs/apply-and-safety.md): nothing is sent. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailListPlan, EmailPlan } from "./email-plan.js";

/** One list as the saved plan records it (the fields of `$defs/emailListPlan` compared here). */
export interface SavedEmailList {
  readonly address: string;
  readonly list_id: string;
  readonly csv: string;
  /** The CSV's sha256 (hex) when the plan was made; null when it could not be read then. */
  readonly sha256: string | null;
  readonly state: EmailListPlan["state"];
  readonly rows: number;
  readonly to_send: number;
  readonly refused: number;
}

/** What reading a CSV found now: its sha256, or that it is missing or unreadable. */
export type CsvNow =
  | { readonly kind: "found"; readonly sha256: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly message: string };

/**
 * The email lists of a saved plan document already valid against schemas/plan.schema.json;
 * undefined when the plan carries no `email` member (files without email).
 */
export function savedEmailLists(document: unknown): readonly SavedEmailList[] | undefined {
  if (typeof document !== "object" || document === null || !("email" in document)) return undefined;
  const email = (document as { email: { lists: readonly SavedEmailList[] } }).email;
  return email.lists.map((l) => ({
    address: l.address,
    list_id: l.list_id,
    csv: l.csv,
    sha256: l.sha256,
    state: l.state,
    rows: l.rows,
    to_send: l.to_send,
    refused: l.refused,
  }));
}

function hintFor(planFile: string): string {
  return `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
}

/**
 * Each saved list's CSV against its bytes now (by the CSV path the plan records): a changed,
 * missing or unreadable CSV is one error. Lists whose CSV was unreadable when planned are left to
 * {@link compareEmailLists}.
 */
export function compareCsvDigests(
  saved: readonly SavedEmailList[],
  now: ReadonlyMap<string, CsvNow>,
  planFile: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = hintFor(planFile);
  for (const list of saved) {
    if (list.sha256 === null) continue;
    const found = now.get(list.csv) ?? { kind: "missing" };
    switch (found.kind) {
      case "found":
        if (found.sha256 !== list.sha256)
          out.push({
            severity: "error",
            code: "apply.files-changed",
            message: `email list ${list.address}: its CSV ${list.csv} changed since the plan was made (sha256 ${short(list.sha256)} in the plan, ${short(found.sha256)} now)`,
            hint,
          });
        break;
      case "missing":
        out.push({
          severity: "error",
          code: "apply.file-missing",
          message: `email list ${list.address}: its CSV ${list.csv}, read when the plan was made, is missing`,
          hint,
        });
        break;
      case "unreadable":
        out.push({
          severity: "error",
          code: "apply.file-missing",
          message: `email list ${list.address}: its CSV ${list.csv}, read when the plan was made, cannot be read (${found.message})`,
          hint,
        });
        break;
    }
  }
  return out;
}

/**
 * The saved lists against the email plan made again now from the same files: the same lists (by
 * address), each with the same id, CSV, digest, state and counts. Empty when they are the same.
 * `fresh` undefined: the files describe no email now.
 */
export function compareEmailLists(
  saved: readonly SavedEmailList[],
  fresh: EmailPlan | undefined,
  planFile: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = hintFor(planFile);
  const differs = (address: string, field: string, a: string, b: string): Diagnostic => ({
    severity: "error",
    code: "apply.plan-differs",
    message: `email list ${address}: ${field} differs (saved: ${a}; fresh: ${b})`,
    hint,
  });
  const now = new Map((fresh?.lists ?? []).map((l) => [l.address, l]));
  const savedAddresses = new Set(saved.map((l) => l.address));
  for (const s of saved) {
    const f = now.get(s.address);
    if (f === undefined) {
      out.push(differs(s.address, "list", `${s.list_id} from ${s.csv}`, "absent from the files"));
      continue;
    }
    const fields: readonly [string, string | number | null, string | number | null][] = [
      ["list_id", s.list_id, f.list_id],
      ["csv", s.csv, f.csv],
      ["sha256", s.sha256, f.sha256],
      ["state", s.state, f.state],
      ["rows", s.rows, f.rows],
      ["to_send", s.to_send, f.to_send],
      ["refused", s.refused, f.refused],
    ];
    for (const [field, a, b] of fields)
      if (a !== b) out.push(differs(s.address, field, String(a), String(b)));
  }
  for (const f of fresh?.lists ?? [])
    if (!savedAddresses.has(f.address))
      out.push(differs(f.address, "list", "absent", `${f.list_id} from ${f.csv}`));
  return out;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
