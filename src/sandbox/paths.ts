/** Finds the package root (the directory holding campaignctl's package.json) from this module. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/** Walks up from this file; works from `src/` (vitest) and from `dist/src/` (built). */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
      if (name === "campaignctl") {
        cached = dir;
        return dir;
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("campaignctl package root not found above the sandbox module");
    dir = up;
  }
}

export function defaultFixturePath(): string {
  return join(packageRoot(), "examples", "sandbox.yaml");
}
