/**
 * A saved plan on disk (`apply PLANFILE`): its text read and parsed (src/report/plan-schema.ts), and
 * the bytes of every input it names hashed as they are now, for the one staleness check
 * (`compareFiles` of src/apply).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { FileNow } from "../../src/apply/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Plan } from "../../src/plan/types.js";
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { errnoCode } from "./files.js";

/** The plan file read and parsed, or why not (its own diagnostics, or `apply.plan-unreadable`). */
export async function readSavedPlan(
  cwd: string,
  planFile: string,
): Promise<{ ok: true; text: string; plan: Plan } | { ok: false; diagnostics: readonly Diagnostic[] }> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, planFile), "utf8");
  } catch (error) {
    const unreadable: Diagnostic = {
      severity: "error",
      code: "apply.plan-unreadable",
      message: `cannot read ${planFile} (${errnoCode(error)})`,
      hint: "pass the file `campaignctl plan --out FILE` wrote",
    };
    return { ok: false, diagnostics: [unreadable] };
  }
  const parsed = parsePlanDocument(text, { file: planFile });
  return parsed.ok ? { ok: true, text, plan: parsed.plan } : parsed;
}

/** Every input the plan names (campaign files, policy files, CSVs alike), by path, as it is now. */
export async function inputsNow(cwd: string, plan: Plan): Promise<Map<string, FileNow>> {
  const files = new Map<string, FileNow>();
  for (const f of plan.files) files.set(f.path, await hashFile(resolve(cwd, f.path)));
  return files;
}

/** The sha256 of a file's bytes, read as a stream (a CSV of any size), or why it cannot be read. */
async function hashFile(path: string): Promise<FileNow> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return { kind: "found", sha256: hash.digest("hex") };
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" ? { kind: "missing" } : { kind: "unreadable", message: code };
  }
}
