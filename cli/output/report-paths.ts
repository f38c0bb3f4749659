/**
 * The report files a command is asked to write (`--out`, `--markdown`, `--junit`, and the directory
 * of `preview --html`) are checked before its first request, so a typo in a path fails in a second
 * instead of after an apply has sent its messages. Checked without side effects: nothing is created
 * here (saveFile creates missing directories when it writes).
 */
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { errnoCode } from "../adapters/files.js";
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
 * file, or it is a YAML file (`plan --markdown campaign.yaml`). Empty when every given path can be
 * written.
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
    if (/\.ya?ml$/i.test(path)) {
      problems.push(
        unwritable(flag, file, YAML_WHY, `${flag} takes the report's own file, such as ${EXAMPLE[flag]}`),
      );
      continue;
    }
    const why = await whyUnwritable(path);
    if (why !== undefined) problems.push(unwritable(flag, file, why, HINT));
  }
  return problems;
}

const HINT = "pass a file path in a directory you can write to (missing directories are created)";

/**
 * `plan --markdown campaign.yaml`, `--markdown` taken for a switch like `--json`: the campaign file
 * became the report's path (the directory was read) and was overwritten. No report is YAML.
 */
const YAML_WHY = "it is a YAML file (a campaign or policy file), not a report";
const EXAMPLE: Readonly<Record<ReportPath["flag"], string>> = {
  "--out": "--out plan.json",
  "--markdown": "--markdown report.md",
  "--junit": "--junit report.xml",
};

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
  return whyDirUnwritable(dirname(path));
}

/**
 * Why files could not be written in the directory `path` (created when missing), or undefined when
 * they can: its nearest existing ancestor (itself when it exists) must be a directory we can write in.
 */
async function whyDirUnwritable(path: string): Promise<string | undefined> {
  let dir = path;
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

/** A directory a command writes one file into, as given on the command line (`preview --html DIR`). */
export interface ReportDir {
  readonly flag: "--html";
  /** As the user typed it. */
  readonly dir: string;
  /** The name of the file written inside `dir`. */
  readonly file: string;
}

/**
 * The `cli.file-unwritable` error when `target.file` could not be written in `target.dir`: the
 * directory is a file, a part of it is a file, its nearest existing directory is not writable, or
 * the file in it is a directory. Empty when it can be written. Nothing is created here.
 */
export async function checkReportDir(io: Io, target: ReportDir): Promise<Diagnostic[]> {
  const dir = resolve(io.cwd, target.dir);
  const inside = join(dir, target.file);
  const own = await statOrCode(inside);
  const why =
    typeof own !== "string" && own.isDirectory() ? `${inside} is a directory` : await whyDirUnwritable(dir);
  if (why === undefined) return [];
  return [
    {
      severity: "error",
      code: "cli.file-unwritable",
      message: `${target.flag} ${target.dir}: cannot write there: ${why}`,
      hint: "pass a directory you can write to (missing directories are created)",
    },
  ];
}

async function statOrCode(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    return errnoCode(error);
  }
}
