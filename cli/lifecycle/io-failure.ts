/**
 * A file the run had open that the machine would not let it read or write (no space left, a file
 * size limit, a read-only or failing disk, a permission taken away): not a bug of campaignctl, so
 * the error boundary (run.ts) says it as the error `cli.io-failed`, naming the file and the
 * system's words, with exit code 1, instead of an internal error. What the command wrote before it
 * stays written; its own documentation says what a run again does (`replies run` finds the answer
 * it sent but could not record in the conversation's thread, and does not send it again).
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";

/** A Node system error of the file system: its code, the call, and the file when known. */
interface SystemError {
  readonly code: string;
  readonly syscall: string;
  readonly path?: string;
  readonly message: string;
}

/** The codes of a machine refusing a file, as opposed to a bug's (EBADF, EINVAL...). */
const REFUSALS = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS", "EACCES", "EPERM", "ENXIO", "ESTALE"]);

function systemError(error: unknown): SystemError | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall, path } = error as Partial<Record<"code" | "syscall" | "path", unknown>>;
  if (typeof code !== "string" || typeof syscall !== "string" || !REFUSALS.has(code)) return null;
  return { code, syscall, message: error.message, ...(typeof path === "string" ? { path } : {}) };
}

/** `error` as the diagnostic `cli.io-failed`, or null when it is not a file the machine refused. */
export function ioFailure(error: unknown): Diagnostic | null {
  const failed = systemError(error);
  if (failed === null) return null;
  // "ENOSPC: no space left on device, write" -> "no space left on device".
  const words = failed.message.replace(/^[A-Z]+: /, "").replace(/, [a-z]+( '.*')?$/, "");
  const file = failed.path === undefined ? "a file" : failed.path;
  return {
    severity: "error",
    code: "cli.io-failed",
    message: `could not ${failed.syscall} ${file}: ${words} (${failed.code})`,
    hint: "make room on the disk (or fix what refused the file), then run the command again: what it wrote before stays",
  };
}
