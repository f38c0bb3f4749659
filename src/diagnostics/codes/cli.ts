/** Diagnostic codes raised by the command line itself. */
export const CLI_CODES = {
  "cli.usage": "the command line's words are off (unknown flag, missing argument)",
  "cli.path-not-found": "a path given on the command line does not exist",
  "cli.no-input": "no campaign files were found under the given paths",
  "cli.file-unreadable":
    "a file could not be read, or is not a regular file (a named pipe, a device, a socket, a directory: never read, never waited on)",
  "cli.file-unwritable":
    "a file the command was asked to write (--out, --markdown, --junit) could not be written; a warning for the offline snapshot of `plan` and `import`",
  "cli.io-failed":
    "a file the run had open could not be read or written (no space left, a file size limit, a read-only or failing disk, a permission): the command stopped there",
  "cli.file-exists":
    "`campaignctl init` would overwrite a file that exists with other content, so it wrote nothing",
  "cli.sandbox-unavailable":
    "`campaignctl sandbox` could not start: a bad fixture, state file, fault spec, host or port",
} as const;

export type CliCode = keyof typeof CLI_CODES;
