/**
 * The one rule for the `# yaml-language-server: $schema=...` modeline of the files campaignctl
 * writes (`import` for new campaign files, `init` for the scaffold), so that an editor finds the
 * schema on the user's machine and on every clone of the repository:
 *
 * 1. the nearest `schemas/<name>.schema.json` that is campaignctl's (its `title`), in the file's
 *    directory or above it, up to the repository root (the first directory holding `.git`): the copy
 *    `campaignctl init` writes and the repository commits;
 * 2. else the nearest `node_modules/campaignctl/schemas/<name>.schema.json` in those directories
 *    (campaignctl installed in the repository);
 * 3. else the schema of the campaignctl that runs, by `file://` URL: it resolves on this machine
 *    only (`campaignctl init` in the repository gives it a copy, then import names that).
 *
 * 1 and 2 are paths relative to the file's directory, with `/`, as the modeline resolves them. The
 * walk is a pure decision over a probe of the file system ({@link diskProbe} reads the disk).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The schemas a file campaignctl writes may name. */
export type SchemaName = "campaign" | "policy";

/** Where campaignctl's schemas live in a repository (rule 1) and in its package. */
export const SCHEMAS_DIR = "schemas";

/** What the walk asks of the file system. */
export interface SchemaProbe {
  /** Whether `absolute` is campaignctl's schema `name` (a JSON file with its `title`). */
  readonly isSchema: (absolute: string, name: SchemaName) => boolean;
  /** Whether `absolute` exists (a file or a directory); used for `.git`. */
  readonly exists: (absolute: string) => boolean;
}

/** The schema file of the running campaignctl (`dist/schemas/` built, `schemas/` in the sources). */
export function packageSchemaPath(name: SchemaName): string {
  return fileURLToPath(new URL(`../../${SCHEMAS_DIR}/${name}.schema.json`, import.meta.url));
}

/**
 * The `title` campaignctl's schema `name` carries, which tells it from another schema of that file
 * name. Schemas have no `$id`: one would name a URL (and a validator resolving references against
 * it would fetch it); without one, a schema is known by where it is and refers to its siblings there.
 */
export function schemaTitle(name: SchemaName): string {
  return `campaignctl ${name} file`;
}

/** The `$schema` value for a file written at `file` (absolute). See the module comment. */
export function schemaReference(file: string, name: SchemaName, probe: SchemaProbe): string {
  const from = dirname(file);
  const fileName = `${name}.schema.json`;
  const walk: string[] = [];
  for (let dir = from; ; ) {
    walk.push(dir);
    const up = dirname(dir);
    if (probe.exists(join(dir, ".git")) || up === dir) break;
    dir = up;
  }
  const copy = walk.map((d) => join(d, SCHEMAS_DIR, fileName)).find((p) => probe.isSchema(p, name));
  const installed =
    copy ??
    walk
      .map((d) => join(d, "node_modules", "campaignctl", SCHEMAS_DIR, fileName))
      .find((p) => probe.isSchema(p, name));
  if (installed === undefined) return pathToFileURL(packageSchemaPath(name)).href;
  return relative(from, installed).split(sep).join("/");
}

/** The modeline naming `reference`, as a comment line's text (without the `# `). */
export function modelineText(reference: string): string {
  return `yaml-language-server: $schema=${reference}`;
}

/** The probe of the disk: a schema is ours when its `title` is. */
export const diskProbe: SchemaProbe = {
  exists: existsSync,
  isSchema: (absolute, name) => {
    try {
      const document = JSON.parse(readFileSync(absolute, "utf8")) as { title?: unknown };
      return document.title === schemaTitle(name);
    } catch {
      return false;
    }
  },
};
