/** Types of scripts/build-stamp.mjs (the build's stamp: what dist/ was built from). */

/** Directories whose every file is an input of the build. */
export declare const INPUT_DIRS: readonly string[];
/** Single files that are inputs of the build. */
export declare const INPUT_FILES: readonly string[];
/** The stamp's path, relative to the repository root. */
export declare const STAMP: string;
/** The inputs' fingerprint (sha256, hex) under `root`, for `runtime` (default: this process's versions). */
export declare function fingerprint(root: string, runtime?: Record<string, string | undefined>): string;
/** Adds each file's path (relative to `root`) and content to `hash`; a missing file counts as such. */
export declare function hashFiles(
  hash: import("node:crypto").Hash,
  root: string,
  files: readonly string[],
): void;
/** Every file a build leaves in dist/ and src/ *\/generated/, relative to `root`, with its size. */
export declare function outputs(root: string): Record<string, number>;
/** The stamp of the build just made under `root`. */
export declare function makeStamp(
  root: string,
  checked: boolean,
): { fingerprint: string; checked: boolean; outputs: Record<string, number> };
/** Why the last build under `root` does not serve (a sentence), or undefined when it does. */
export declare function staleReason(root: string, checked: boolean): string | undefined;
