/**
 * Which bytes an email list's CSV holds, from an open file (IO): its sha256, read from the start
 * through the handle, and its stamp (size and modification time), which shows the file written in
 * place since. `plan` and `apply` take both from the one open file they read the rows from, so the
 * digest is always that of the rows read, and a file renamed over the path is never read half.
 */
import { createHash } from "node:crypto";
import { type BigIntStats, fstatSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";

/** The sha256 (hex) of an open file's bytes from its start, read as a stream; null when the read fails. The handle stays open. */
export async function handleSha256(handle: FileHandle): Promise<string | null> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of handle.createReadStream({ start: 0, autoClose: false }))
      hash.update(chunk as Buffer);
    return hash.digest("hex");
  } catch {
    return null;
  }
}

/** The open file's size and modification time, to compare later with {@link sameStamp}. */
export function csvStamp(handle: FileHandle): BigIntStats {
  return fstatSync(handle.fd, { bigint: true });
}

/**
 * Whether the open file still has the size and modification time of `stamp` (not the change time,
 * which a rename over the path or a new link changes without touching the bytes); false when it
 * cannot be read (a closed handle).
 */
export function sameStamp(handle: FileHandle, stamp: BigIntStats): boolean {
  try {
    const now = fstatSync(handle.fd, { bigint: true });
    return now.size === stamp.size && now.mtimeNs === stamp.mtimeNs;
  } catch {
    return false;
  }
}
