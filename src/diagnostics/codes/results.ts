/** Diagnostic codes of `campaignctl results` and `results record`. Each entry: a stable code and what it means. */
export const RESULTS_CODES = {
  "results.key-unreadable":
    "a key could not be checked or its statistics could not be read while recording: its projects are not recorded this time (an error when no key could be read)",
  "results.row-unrecordable":
    "a statistics row's actual_cost is not a decimal with at most 4 decimals: that project is not recorded this time",
  "results.unknown-organization":
    "--organization names no organization the results store has recorded (up to the period's end), or more than one",
  "results.store-missing":
    "the results store named (a directory) does not exist: nothing was ever recorded there",
  "results.store-unusable": "a file of the results store cannot be created, read, listed or written",
  "results.store-invalid":
    "a line of the results files is not a snapshot (schemas/results-snapshot.schema.json): a hand edit or a bad merge; the file is neither read nor written",
  "results.store-locked":
    "another recording is writing the results files now (their lock file names its process)",
  "results.torn-line-cut":
    "a results file ends in a line cut short (a copy cut short, a hand edit, an interrupted write of another tool): `results` skips it, and the next recording cuts it off and records that hour again",
  "results.database-url-missing":
    "--store postgres, but the variable holding the connection string is not set",
  "results.database-url-in-flag":
    "--store was given a connection string: it would land in the shell's history; it is read from the environment only",
  "results.database-unusable":
    "the PostgreSQL store could not be reached, migrated, read or written (the batch's transaction was rolled back)",
  "results.database-newer":
    "the PostgreSQL store was migrated by a newer campaignctl (a migration this version does not know): nothing is written",
  "results.files-needed":
    "--by template, language or label needs the campaign files (paths) that map projects to them",
  "results.before-period-included":
    "projects created before the period have no snapshot before it: their figures up to their first snapshot are counted in the period",
  "results.recorded":
    "`watch --record` recorded the hour's snapshots into the results store (the summary line)",
  "results.not-recorded":
    "projects of the campaign files have no snapshot in the store up to the period's end",
} as const;

export type ResultsCode = keyof typeof RESULTS_CODES;
