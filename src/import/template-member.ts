/**
 * A selected live project on its way to an instance of `import --template` (template-import.ts),
 * as the import and its check of the written file (template-verify.ts) both read it.
 */
import type { Project } from "../contract/resources.js";
import type { Catalogs } from "../plan/catalogs.js";
import type { ImportedProject } from "./project-to-yaml.js";

/** One selected project on its way to an instance: its live record, its import, language and address. */
export interface Member {
  readonly project: Project;
  readonly imported: ImportedProject;
  readonly language: string;
  readonly catalogs: Catalogs;
  readonly address: string;
  readonly organization: string;
}
