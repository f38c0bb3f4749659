/**
 * The source tree the architecture test reads: every TypeScript file under src/ and cli/ (declaration
 * files aside), and the JSON data files code imports (src/jurisdictions/packs/*.json: they import
 * nothing, but an import of one must resolve), by its path from the repository root (posix), with
 * its text.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folders the test reads, from the repository root. */
export const SCANNED = ["src", "cli"] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|json)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The tree as it stands on disk now. */
export function readTree(): Map<string, string> {
  const files = SCANNED.flatMap((folder) => sourceFiles(join(ROOT, folder)));
  return new Map(
    files.map((path) => [relative(ROOT, path).split(sep).join("/"), readFileSync(path, "utf8")]),
  );
}
