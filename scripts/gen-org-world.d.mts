/** Types of scripts/gen-org-world.mjs (a sandbox fixture of many organizations). */

/** Where the script writes: each call one whole string. */
export interface GenOrgWorldIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The script's run on `argv` (its flags): the exit code (0 written, 1 cannot write, 2 usage or no build). */
export declare function main(argv: readonly string[], io: GenOrgWorldIo): Promise<number>;
