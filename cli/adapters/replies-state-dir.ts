/**
 * The `--state` directory of `replies run`: created, its listener record opened (with the lock that
 * guards the whole directory: one worker each, cli/adapters/record-file.ts) and its replies state
 * (answered record and poll cursor, ./replies-state.ts). What cannot be opened is a diagnostic.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { recordOpenFailure, stateUnusable } from "../../src/replies/run-checks.js";
import type { RepliesState } from "../../src/replies/state-file.js";
import type { RecordFile } from "../../src/webhooks/record-store.js";
import { openRecordFile } from "./record-file.js";
import { openRepliesState } from "./replies-state.js";

export type OpenedStateDir =
  | { readonly ok: true; readonly file: RecordFile; readonly state: RepliesState }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** Opens `shown` (the `--state` directory as typed) under `cwd`; on failure nothing stays open. */
export async function openRepliesStateDir(cwd: string, shown: string): Promise<OpenedStateDir> {
  const dir = resolve(cwd, shown);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return { ok: false, diagnostic: stateUnusable(shown, error) };
  }
  const opened = await openRecordFile(join(dir, "webhooks"), join(shown, "webhooks"));
  if (!opened.ok) return { ok: false, diagnostic: recordOpenFailure(opened.diagnostic) };
  try {
    return { ok: true, file: opened.file, state: await openRepliesState(dir) };
  } catch (error) {
    await opened.file.close();
    return { ok: false, diagnostic: stateUnusable(shown, error) };
  }
}
