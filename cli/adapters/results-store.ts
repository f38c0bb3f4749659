/**
 * Which results store a command uses (docs/results.md "Stores"): `--store files` (the default), the
 * files under `--dir` (default `results/`, relative to the working directory); `--store postgres`,
 * the database whose connection string is in `CAMPAIGNCTL_RESULTS_DATABASE_URL`. A connection string
 * typed as the flag's value is refused without being repeated: it would be in the shell's history.
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { ResultsStore } from "../../src/results/store.js";
import type { Io } from "../output/io.js";
import { openFileStore } from "./results-files.js";
import { DATABASE_URL_ENV, openPostgresStore } from "./results-postgres.js";

/** The stores `--store` names. */
export const STORE_KINDS = ["files", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** The default directory of the file store. */
export const DEFAULT_RESULTS_DIR = "results";

/** The store flags every results command takes. */
export interface StoreFlags {
  /** `--store`, as typed (checked here: never echoed when it is not a store's name). */
  readonly store?: string;
  /** `--dir DIR`: the file store's directory. */
  readonly dir?: string;
}

/** Problems of the store flags, before anything is read or written. */
export function storeProblems(flags: StoreFlags): Diagnostic[] {
  const store = flags.store ?? "files";
  if ((STORE_KINDS as readonly string[]).includes(store)) {
    if (store === "postgres" && flags.dir !== undefined)
      return [
        {
          severity: "error",
          code: "cli.usage",
          message: "--dir names the file store's directory: it has no meaning with --store postgres",
          hint: "drop --dir, or use --store files",
        },
      ];
    return [];
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(store) || store.includes("@"))
    return [
      {
        severity: "error",
        code: "results.database-url-in-flag",
        message:
          "--store was given a connection string: it is not used (nor shown here), as it would stay in the shell's history",
        hint: `export ${DATABASE_URL_ENV} with the connection string (from your secret store), then give --store postgres; remove the command from your shell history`,
      },
    ];
  return [
    {
      severity: "error",
      code: "cli.usage",
      message: `--store ${store} is not a store: give ${STORE_KINDS.join(" or ")}`,
      hint: `--store files (the default: ${DEFAULT_RESULTS_DIR}/ in the repository) or --store postgres (${DATABASE_URL_ENV})`,
    },
  ];
}

/** Opens the store of checked flags. */
export async function openResultsStore(
  flags: StoreFlags,
  io: Io,
): Promise<{ ok: true; store: ResultsStore } | { ok: false; diagnostics: Diagnostic[] }> {
  const kind = (flags.store ?? "files") as StoreKind;
  switch (kind) {
    case "files": {
      const shown = flags.dir ?? DEFAULT_RESULTS_DIR;
      return { ok: true, store: openFileStore(resolve(io.cwd, shown), shown) };
    }
    case "postgres": {
      const url = io.env[DATABASE_URL_ENV];
      if (url === undefined || url.trim() === "")
        return {
          ok: false,
          diagnostics: [
            {
              severity: "error",
              code: "results.database-url-missing",
              message: `--store postgres reads its connection string from ${DATABASE_URL_ENV}, which is not set`,
              hint: `export ${DATABASE_URL_ENV}=postgres://user:password@host:5432/database (from your secret store; never in a file)`,
            },
          ],
        };
      return openPostgresStore(url);
    }
  }
}
