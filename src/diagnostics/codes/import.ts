/** Diagnostic codes of `campaignctl import`. Each entry: a stable code and what it means. */
export const IMPORT_CODES = {
  "import.no-selection": "no project was selected: give project ids, --all, --status or --organization",
  "import.project-not-found":
    "a project id given to import reads 404: no such project, or not visible to the key",
  "import.project-forbidden":
    "a project id given to import reads 403: it is outside the key's organization tree",
  "import.project-unreadable": "a project given to import could not be read (API error)",
  "import.record-unreadable":
    "a media file or toll-free verification a selected project uses could not be read (API error, not 403/404); nothing is written",
  "import.unknown-organization": "--organization names no organization the key can see",
  "import.existing-file-invalid":
    "an existing campaign file under --out does not load; import updates only files that load without errors",
  "import.organization-conflict":
    "--out FILE names a file for one organization, and a selected project belongs to another",
  "import.template-schedule-repeated":
    "--template: a project's live send time is the second of a local time clocks repeat (fall back), which a template's local time cannot say; nothing is written",
  "import.verify-failed":
    "a file import would write does not read back as the live projects (a bug); nothing is written",
  "import.live-key":
    "a live project holds an API key in what import would write (its message text); no file may hold one, so nothing is written",
  "import.would-change": "--check: a file would change (the live projects differ from the files)",
  "import.template-language-unknown":
    "--template: a selected project's language cannot be told from its text; name it with --language ID=TAG",
  "import.template-text-differs":
    "--template: selected projects of one language have different texts; a template has one text per language",
  "import.template-file-exists":
    "--template: the file to write exists and differs; import --template writes a new file only",
  "import.template-already-described":
    "--template: a selected project is already described by a campaign file under --out",
  "import.template-invalid-name": "--template NAME or --language ID=TAG is not valid",
} as const;

export type ImportCode = keyof typeof IMPORT_CODES;
