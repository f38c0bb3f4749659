/**
 * A saved plan on disk (`apply PLANFILE`): its text read and parsed (src/report/plan-schema.ts), and
 * the bytes of every input it names hashed as they are now, for the one staleness check
 * (`compareFiles` of src/apply).
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { FileNow } from "../../src/apply/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Plan } from "../../src/plan/types.js";
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { errnoCode } from "./files.js";
import { notRegularFile, openRegularFile, readRegularFile } from "./regular-file.js";

/**
 * Who reads a saved plan, as its problems name it: the words for the file (`the saved plan` for
 * `apply` and `approve`, `--plan` for `preview --html`) and the code of a file that cannot be read.
 */
export interface SavedPlanReader {
  readonly named: string;
  readonly unreadableCode: "apply.plan-unreadable" | "cli.file-unreadable";
}

const APPLY_READER: SavedPlanReader = { named: "the saved plan", unreadableCode: "apply.plan-unreadable" };

/** The plan file read and parsed, or why not (its own diagnostics, or the reader's unreadable code). */
export async function readSavedPlan(
  cwd: string,
  planFile: string,
  reader: SavedPlanReader = APPLY_READER,
): Promise<{ ok: true; text: string; plan: Plan } | { ok: false; diagnostics: readonly Diagnostic[] }> {
  // Only a regular file is read (regular-file.ts): a named pipe would be waited on for ever.
  const read = await readRegularFile(resolve(cwd, planFile));
  if (!read.ok) {
    const unreadable: Diagnostic =
      read.kind === "not-regular"
        ? notRegularFile(reader.named, planFile, read)
        : {
            severity: "error",
            code: reader.unreadableCode,
            message: `cannot read the saved plan ${planFile} (${read.reason})`,
            hint: "pass the file `campaignctl plan --out FILE` wrote",
          };
    return { ok: false, diagnostics: [unreadable] };
  }
  const text = read.bytes.toString("utf8");
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
  // Only a regular file is read (regular-file.ts): a named pipe in a file's place is unreadable at once.
  const opened = await openRegularFile(path);
  if (!opened.ok)
    return opened.reason === "ENOENT" ? { kind: "missing" } : { kind: "unreadable", message: opened.reason };
  try {
    for await (const chunk of opened.handle.createReadStream()) hash.update(chunk as Buffer);
    return { kind: "found", sha256: hash.digest("hex") };
  } catch (error) {
    return { kind: "unreadable", message: errnoCode(error) };
  } finally {
    await opened.handle.close();
  }
}
