/**
 * A text kept across test passes in a directory of `node_modules/.cache/`: the one way the tests'
 * disk caches (compiled validators, the generator's renderings) write and find their files.
 * Invariant: `name` names everything the text is made from, so a file found is the text `make`
 * would give now; a file is written aside and renamed, so a worker or pass reading it at the same
 * time never sees half of it.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The directory of `store` in the cache of the tree at `root`. */
export const storeDir = (root: string, store: string): string => join(root, "node_modules", ".cache", store);

/**
 * The path of `name` in the directory `dir`, written from `make()` when it is not there yet;
 * undefined when it cannot be written (a read-only checkout): the caller then makes what it needs
 * in memory.
 */
export function keptFile(dir: string, name: string, make: () => string): string | undefined {
  const file = join(dir, name);
  if (existsSync(file)) return file;
  try {
    mkdirSync(dir, { recursive: true });
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, make());
    renameSync(aside, file);
    return file;
  } catch {
    return undefined;
  }
}
