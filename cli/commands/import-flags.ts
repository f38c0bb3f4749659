/**
 * The flags of `campaignctl import`, read by its registration (`register/import.ts`), by `import`
 * (`import.ts`) and by `import --template` (`import-template.ts`).
 */
import type { SessionFlags } from "../gather/session.js";

/** The flags of `import`, as commander parses them. */
export interface ImportFlags extends SessionFlags {
  readonly out: string;
  readonly all?: boolean;
  readonly status?: string;
  readonly organization?: string;
  readonly check?: boolean;
  readonly json?: boolean;
  /** `--template NAME`: one template and its instances (`import-template.ts`). */
  readonly template?: string;
  /** `--language ID=TAG`, repeatable (with `--template`). */
  readonly language?: readonly string[];
  /** False with `--no-color`. */
  readonly color: boolean;
}
