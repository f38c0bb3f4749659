/**
 * The refresh cache on disk: `.campaignctl/cache/<hash>/live.json` under the working directory, where
 * `<hash>` is the first 24 hex digits of sha256(scope + "\n" + organization id) and the scope is the
 * session's `apiId`: the API base URL, or the embedded sandbox's identity (one per fixture, as its
 * state; its port changes every run), the same name a plan records as `base_url`. Written
 * atomically (temp file, then rename); an unreadable or corrupt file is ignored with a warning and
 * replaced on the next write. The file holds API records and times only: never the key.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import {
  type CacheRead,
  type CacheSnapshot,
  type CacheStore,
  emptySnapshot,
  parseSnapshot,
} from "../../src/plan/cache.js";
import { errnoCode } from "./files.js";

/** The cache directory, relative to the working directory. */
export const CACHE_DIR = ".campaignctl/cache";

/** The file a scope's snapshot lives in. */
export function cacheFile(cwd: string, scope: string, organizationId: string): string {
  const hash = createHash("sha256").update(`${scope}\n${organizationId}`).digest("hex").slice(0, 24);
  return join(cwd, CACHE_DIR, hash, "live.json");
}

/** A `CacheStore` on disk for one scope. */
export function createFileCache(cwd: string, scope: string): CacheStore {
  return {
    read: async (organizationId: string): Promise<CacheRead> => {
      const file = cacheFile(cwd, scope, organizationId);
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        if (errnoCode(error) === "ENOENT") return { snapshot: emptySnapshot(), diagnostics: [] };
        return {
          snapshot: emptySnapshot(),
          diagnostics: [warning(`cannot read the cache ${file} (${errnoCode(error)})`)],
        };
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const snapshot = parseSnapshot(json);
      if (snapshot === undefined)
        return {
          snapshot: emptySnapshot(),
          diagnostics: [warning(`ignored the cache ${file}: it is corrupt or of another version`)],
        };
      return { snapshot, diagnostics: [] };
    },
    write: async (organizationId: string, snapshot: CacheSnapshot): Promise<readonly Diagnostic[]> => {
      const file = cacheFile(cwd, scope, organizationId);
      const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
      try {
        await mkdir(join(file, ".."), { recursive: true });
        await writeFile(temp, JSON.stringify(snapshot), { encoding: "utf8", mode: 0o600 });
        await rename(temp, file);
        return [];
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        return [
          warning(
            `cannot write the cache ${file} (${errnoCode(error)}); the next plan reads everything again`,
          ),
        ];
      }
    },
  };
}

function warning(message: string): Diagnostic {
  return {
    severity: "warning",
    code: "cli.file-unreadable",
    message,
    hint: `the cache only saves requests; delete ${CACHE_DIR} or run with --refresh`,
  };
}
