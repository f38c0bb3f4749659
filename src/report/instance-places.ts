/**
 * The template instances a finding is for, as reports list them (issue 33: one finding at a
 * template's value for 60 instances): by file, each instance by its address (searchable in the
 * file; `--json` and the language server have each one's place), in one note instead of a note
 * each. Pure.
 */
import type { RelatedInformation } from "../diagnostics/diagnostic.js";

/** The instances of one file, in the order the finding names them. */
export interface InstancesInFile {
  readonly file: string;
  /** The instances' addresses. */
  readonly entries: readonly string[];
}

/**
 * The instance places of `related` by file (in the order of their first place), or undefined when
 * it names fewer than two instances (a lone instance keeps its note, with its full message).
 */
export function instancesByFile(related: readonly RelatedInformation[]): InstancesInFile[] | undefined {
  const byFile = new Map<string, string[]>();
  let count = 0;
  for (const r of related) {
    if (r.instance === undefined) continue;
    count += 1;
    const entry = r.instance.address;
    const list = byFile.get(r.range.file);
    if (list === undefined) byFile.set(r.range.file, [entry]);
    else list.push(entry);
  }
  return count < 2 ? undefined : [...byFile].map(([file, entries]) => ({ file, entries }));
}

/** `3 instances` (the count of every file's instances). */
export function instanceCount(listed: readonly InstancesInFile[]): string {
  const n = listed.reduce((sum, f) => sum + f.entries.length, 0);
  return `${n} instance${n === 1 ? "" : "s"}`;
}
