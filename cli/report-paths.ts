/**
 * The report files a command is asked to write (`--out`, `--markdown`, `--junit`) are checked before
 * its first request, so a typo in a path fails in a second instead of after an apply has sent its
 * messages. Checked without side effects: nothing is created here (saveFile creates missing
 * directories when it writes).
 */
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { errnoCode } from "./files.js";
import type { Io } from "./io.js";

/** One report path as given on the command line, with the flag that gave it. */
export interface ReportPath {
  readonly flag: "--out" | "--markdown" | "--junit";
  /** As the user typed it; undefined when the flag was not given. */
  readonly file: string | undefined;
}

/**
 * One `cli.file-unwritable` error per path that could not be written: the path is a directory, a
 * part of it is a file, its nearest existing directory is not writable, or two flags name the same
 * file. Empty when every given path can be written.
 */
export async function checkReportPaths(io: Io, paths: readonly ReportPath[]): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = [];
  const seen = new Map<string, string>();
  for (const { flag, file } of paths) {
    if (file === undefined) continue;
    const path = resolve(io.cwd, file);
    const first = seen.get(path);
    if (first !== undefined) {
      problems.push(unwritable(flag, file, `${first} writes the same file`, "give each report its own file"));
      continue;
    }
    seen.set(path, flag);
    const why = await whyUnwritable(path);
    if (why !== undefined) problems.push(unwritable(flag, file, why, HINT));
  }
  return problems;
}

const HINT = "pass a file path in a directory you can write to (missing directories are created)";

function unwritable(flag: ReportPath["flag"], file: string, why: string, hint: string): Diagnostic {
  return {
    severity: "error",
    code: "cli.file-unwritable",
    message: `${flag} ${file}: cannot write there: ${why}`,
    hint,
  };
}

/** Why `path` could not be written, or undefined when it can (as far as can be told beforehand). */
async function whyUnwritable(path: string): Promise<string | undefined> {
  const own = await statOrCode(path);
  if (typeof own !== "string" && own.isDirectory()) return "it is a directory";
  // The file is written as a temporary file then renamed, so what matters is its directory: the
  // nearest existing ancestor must be a directory we can write in.
  let dir = dirname(path);
  for (;;) {
    const found = await statOrCode(dir);
    if (typeof found !== "string") {
      if (!found.isDirectory()) return `${dir} is a file, not a directory`;
      try {
        await access(dir, constants.W_OK);
        return undefined;
      } catch (error) {
        return `${dir} is not writable (${errnoCode(error)})`;
      }
    }
    if (found !== "ENOENT" && found !== "ENOTDIR") return `${dir} cannot be read (${found})`;
    const parent = dirname(dir);
    if (parent === dir) return `${dir} does not exist`;
    dir = parent;
  }
}

async function statOrCode(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    return errnoCode(error);
  }
}
