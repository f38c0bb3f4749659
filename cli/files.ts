/** Writing the files a command is asked for, and the errno of a failed file operation. */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import type { Io } from "./io.js";

/** The `code` of a Node file-system error (`ENOENT`, `EACCES`, ...), or "unknown error". */
export function errnoCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : "unknown error";
}

/**
 * Writes `text` to `file` (relative to the working directory) atomically (temp file + rename),
 * creating its directory, and says so on stderr. A failure is a diagnostic, never an exception.
 */
export async function saveFile(io: Io, file: string, text: string, what: string): Promise<Diagnostic[]> {
  const path = resolve(io.cwd, file);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, text, "utf8");
    await rename(temp, path);
    io.stderr(`Wrote the ${what} to ${file}\n`);
    return [];
  } catch (error) {
    return [
      {
        severity: "error",
        code: "cli.file-unwritable",
        message: `cannot write the ${what} to ${file} (${errnoCode(error)})`,
        hint: "check that the directory exists and is writable",
      },
    ];
  }
}
