/**
 * The file-size rule (issue 33: small files, one concern each): no hand-written source file of the
 * places it covers is larger than `max` bytes (UTF-8, as on disk). The generated schema validators
 * (any file under a `generated/` folder: scripts/gen-validators.mjs writes them) are exempt, and so
 * are data files (`.json`): the rule is about code a person reads. Files still larger are listed with
 * the size they may not grow past; an allowance nothing needs any more is a finding too, so the list
 * only shrinks. Pure: it reads the tree it is given.
 */

/** A file still allowed to be large: debt, with why and the size in bytes it may not exceed. */
export interface LargeFileAllowance {
  readonly file: string;
  readonly bytes: number;
  readonly why: string;
}

/** What the rule covers. Invariant: places are folders ending in `/`; `max` is in bytes. */
export interface FileSizeRules {
  readonly places: readonly string[];
  readonly max: number;
  readonly allowed: readonly LargeFileAllowance[];
}

/** Whether the rule reads a file: TypeScript under one of the places, outside a `generated/` folder. */
export function isHandWritten(file: string, places: readonly string[]): boolean {
  return (
    places.some((place) => file.startsWith(place)) &&
    /\.(ts|mts|cts)$/.test(file) &&
    !file.split("/").includes("generated")
  );
}

/** The findings, sorted by file: each file over its limit, then each allowance no longer needed. */
export function checkFileSizes(tree: ReadonlyMap<string, string>, rules: FileSizeRules): string[] {
  const findings: string[] = [];
  const used = new Set<string>();
  const files = [...tree.keys()].filter((file) => isHandWritten(file, rules.places)).sort();
  for (const file of files) {
    const bytes = Buffer.byteLength(tree.get(file) ?? "", "utf8");
    if (bytes <= rules.max) continue;
    const allowance = rules.allowed.find((a) => a.file === file);
    if (allowance !== undefined) used.add(file);
    const limit = allowance?.bytes ?? rules.max;
    if (bytes > limit) findings.push(`${file} has ${bytes} bytes (at most ${limit})`);
  }
  for (const allowance of rules.allowed)
    if (!used.has(allowance.file))
      findings.push(`allowance no longer needed: ${allowance.file} (${allowance.bytes} bytes)`);
  return findings;
}
