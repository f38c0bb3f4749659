/**
 * The offline snapshot on disk (src/plan/snapshot.ts): `.campaignctl/snapshot.json` in the
 * directory that holds the campaign files (their deepest common directory). `import` and `plan`
 * write it after their reads, merged per organization into the one there, atomically (temp file
 * and rename) and quietly; a snapshot that cannot be written is a warning, never a failed run. The
 * language server only reads it, from the nearest `.campaignctl/` above a document.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, parse, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { LiveRead, LiveState } from "../../src/plan/live.js";
import {
  mergeSnapshots,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_PATH,
  type Snapshot,
  snapshotOf,
} from "../../src/plan/snapshot.js";
import { errnoCode } from "./files.js";

/** The deepest directory holding every one of `files` (absolute or relative to `cwd`). */
export function commonDirectory(files: readonly string[], cwd: string): string {
  const dirs = files.map((f) => dirname(resolve(cwd, f)).split(sep));
  const [first = [cwd], ...rest] = dirs;
  let n = first.length;
  for (const d of rest) {
    let i = 0;
    while (i < n && i < d.length && d[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join(sep) || parse(cwd).root;
}

/** The snapshot at `file`, or undefined when there is none or it is not one this version reads. */
export function readSnapshot(file: string): Snapshot | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Snapshot>;
    return parsed.format_version === SNAPSHOT_FORMAT_VERSION && Array.isArray(parsed.organizations)
      ? (parsed as Snapshot)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path of the snapshot nearest above `file` (its own directory first), no higher than `stop`
 * when given; undefined when there is none.
 */
export function snapshotAbove(file: string, stop?: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    const candidate = join(dir, SNAPSHOT_PATH);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir || (stop !== undefined && relative(stop, dir) === "")) return undefined;
    dir = up;
  }
}

/** Writes `snapshot` (merged into the one there) under `dir`; a failure is a warning. */
export async function writeSnapshot(dir: string, snapshot: Snapshot, cwd: string): Promise<Diagnostic[]> {
  const file = join(dir, SNAPSHOT_PATH);
  const merged = mergeSnapshots(readSnapshot(file), snapshot);
  const temp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(temp, `${JSON.stringify(merged, null, 2)}\n`, { flag: "wx" });
    await rename(temp, file);
    return [];
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    return [
      {
        severity: "warning",
        code: "cli.file-unwritable",
        message: `the offline snapshot ${relative(cwd, file) || file} could not be written (${errnoCode(error)})`,
        hint: "the editor's completion of names uses the older snapshot, if any; check the directory's permissions",
      },
    ];
  }
}

/** The snapshot of what a plan's refresh read (the bulk lists and every project and verification read). */
export function snapshotOfLive(live: LiveState, writtenBy: Snapshot["written_by"], readAt: Date): Snapshot {
  const found = <T>(reads: ReadonlyMap<string, LiveRead<T>>): T[] =>
    [...reads.values()].flatMap((r) => (r.kind === "found" ? [r.value] : []));
  return snapshotOf(
    {
      organizations: live.organizations,
      tenDlcCampaigns: live.tenDlcCampaigns,
      contactLists: live.contactLists,
      phoneNumbers: live.phoneNumbers,
      projects: found(live.projects),
      tollFreeVerifications: found(live.tollFreeVerifications),
    },
    writtenBy,
    readAt,
  );
}
