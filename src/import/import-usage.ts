/**
 * What `import` decides from its flags before anything is read (pure): which projects it selects,
 * and the flags that say nothing or contradict each other; and the `--check` verdict on the files
 * it would change.
 */
import { PROJECT_STATUSES } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type Selection, selects } from "./read-live.js";

/** The selecting flags of `import`. */
export interface ImportSelectionFlags {
  readonly all?: boolean;
  readonly status?: string;
  readonly organization?: string;
  readonly template?: string;
  /** `--language ID=TAG`, repeatable (with `--template` only). */
  readonly language?: readonly string[];
}

/** The projects `ids` and the flags select. */
export function importSelection(ids: readonly string[], flags: ImportSelectionFlags): Selection {
  return {
    ids,
    all: flags.all === true,
    ...(flags.status === undefined ? {} : { status: flags.status }),
    ...(flags.organization === undefined ? {} : { organization: flags.organization }),
  };
}

/**
 * The usage errors of `import`, in the order they are met: nothing selected, a `--status` that is no
 * project status, `--language` without `--template`.
 */
export function importUsage(selection: Selection, flags: ImportSelectionFlags): Diagnostic[] {
  if (!selects(selection))
    return [
      {
        severity: "error",
        code: "import.no-selection",
        message: "no project was selected",
        hint: "give project ids, or --all, --status STATUS or --organization ORG",
      },
    ];
  if (flags.status !== undefined && !(PROJECT_STATUSES as readonly string[]).includes(flags.status))
    return [
      {
        severity: "error",
        code: "cli.usage",
        message: `--status ${flags.status} is not a project status`,
        hint: `use one of ${PROJECT_STATUSES.join(", ")}`,
      },
    ];
  if (flags.template === undefined && flags.language !== undefined && flags.language.length > 0)
    return [
      {
        severity: "error",
        code: "cli.usage",
        message: "--language is for --template only",
        hint: "add --template NAME, or leave --language out",
      },
    ];
  return [];
}

/** `import --check`: an error naming the files that would change; none when none would. */
export function wouldChange(changed: readonly { readonly path: string }[]): Diagnostic[] {
  if (changed.length === 0) return [];
  return [
    {
      severity: "error",
      code: "import.would-change",
      message: `${changed.length} file${changed.length === 1 ? "" : "s"} would change: ${changed.map((f) => f.path).join(", ")}`,
      hint: "run campaignctl import without --check to update them, and review the diff",
    },
  ];
}
