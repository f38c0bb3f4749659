/**
 * The offline snapshot a document's completion and hover read (cli/adapters/snapshot-file.ts): the nearest
 * `.campaignctl/snapshot.json` above the document, no higher than its workspace folder, read from
 * disk and kept while its modification time stays the same. Never a network request.
 */
import { statSync } from "node:fs";
import type { Snapshot } from "../../src/plan/snapshot.js";
import { readSnapshot, snapshotAbove } from "../adapters/snapshot-file.js";

export type SnapshotLookup =
  | { readonly kind: "found"; readonly file: string; readonly snapshot: Snapshot }
  | { readonly kind: "missing" };

export function snapshotCache(): (document: string, folder?: string) => SnapshotLookup {
  const cache = new Map<string, { mtimeMs: number; snapshot: Snapshot | undefined }>();
  return (document, folder) => {
    const file = snapshotAbove(document, folder);
    if (file === undefined) return { kind: "missing" };
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return { kind: "missing" };
    }
    let hit = cache.get(file);
    if (hit === undefined || hit.mtimeMs !== mtimeMs) {
      hit = { mtimeMs, snapshot: readSnapshot(file) };
      cache.set(file, hit);
    }
    return hit.snapshot === undefined ? { kind: "missing" } : { kind: "found", file, snapshot: hit.snapshot };
  };
}
