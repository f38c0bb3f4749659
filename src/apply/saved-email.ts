/**
 * The email lists of a saved plan against the plan made again now from the same files (the
 * reviewed expectation, as for projects: src/apply/saved-plan.ts). The CSVs' bytes are the one
 * staleness check's (stale.ts `compareFiles`, before any request); here each list made again must
 * be the one reviewed: the same lists (by address), each with the same id, CSV, digest, verdict and
 * counts. Any difference refuses the whole saved plan (`apply.plan-differs`). Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Plan } from "../plan/types.js";

/** Empty when the fresh plan's email lists are the reviewed ones. */
export function compareEmailLists(reviewed: Plan, fresh: Plan, planFile: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = `make the plan again (\`campaignctl plan --out ${planFile} ...\`), review it, and apply that`;
  const differs = (address: string, field: string, a: string, b: string): Diagnostic => ({
    severity: "error",
    code: "apply.plan-differs",
    message: `email list ${address}: ${field} differs (saved: ${a}; fresh: ${b})`,
    hint,
  });
  const saved = reviewed.email?.lists ?? [];
  const now = new Map((fresh.email?.lists ?? []).map((l) => [l.address, l]));
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
      ["verdict", s.verdict, f.verdict],
      ["rows", s.rows, f.rows],
      ["to_send", s.to_send, f.to_send],
      ["refused", s.refused, f.refused],
    ];
    for (const [field, a, b] of fields)
      if (a !== b) out.push(differs(s.address, field, String(a), String(b)));
  }
  for (const f of fresh.email?.lists ?? [])
    if (!savedAddresses.has(f.address))
      out.push(differs(f.address, "list", "absent", `${f.list_id} from ${f.csv}`));
  return out;
}
