/**
 * What `import --template NAME` decides before and after its reads (pure): the template's name and
 * the `--language ID=TAG` flags checked, a selected project that another file already describes,
 * and the `--check` verdict on the file.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { ADDRESS_PATTERN } from "./addresses.js";
import type { Home } from "./existing-declared.js";
import { LANGUAGE_TAG } from "./template-import.js";

/** The template's name and the languages by project id, or every usage error among them. */
export function templateUsage(
  template: string,
  given: readonly string[],
): { readonly languages: Map<string, string>; readonly diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (!ADDRESS_PATTERN.test(template))
    diagnostics.push({
      severity: "error",
      code: "import.template-invalid-name",
      message: `--template ${JSON.stringify(template)} is not a valid template name`,
      hint: "use lower-case letters, digits and dashes, starting with a letter or digit (e.g. gotv-reminder)",
    });
  const languages = new Map<string, string>();
  for (const flag of given) {
    const at = flag.indexOf("=");
    const id = flag.slice(0, at);
    const tag = flag.slice(at + 1);
    if (at <= 0 || !LANGUAGE_TAG.test(tag) || languages.has(id))
      diagnostics.push({
        severity: "error",
        code: "import.template-invalid-name",
        message: `--language ${flag}: ${languages.has(id) ? `${id} is given twice` : "expected PROJECT_ID=TAG with a language tag such as en, es or pt-BR"}`,
        hint: "e.g. --language 9a000000-0000-4000-8000-000000000001=es",
      });
    else languages.set(id, tag);
  }
  return { languages, diagnostics };
}

/** Selected projects another campaign file already describes (`homes`: project id -> where); none: nothing. */
export function alreadyDescribed(
  projectIds: readonly string[],
  homes: ReadonlyMap<string, Home>,
): Diagnostic[] {
  const twice = projectIds.filter((id) => homes.has(id));
  if (twice.length === 0) return [];
  const where = (id: string) => {
    const home = homes.get(id) as Home;
    return `${home.path}: ${home.address}`;
  };
  return [
    {
      severity: "error",
      code: "import.template-already-described",
      message: `already described: ${twice.map((id) => `${id} (${where(id)})`).join(", ")}`,
      hint: "a project is described once: remove it from that file first, or leave it out of the selection",
    },
  ];
}

/** `import --template --check`: an error when the file would change. */
export function templateWouldChange(path: string, changed: boolean): Diagnostic[] {
  if (!changed) return [];
  return [
    {
      severity: "error",
      code: "import.would-change",
      message: `1 file would change: ${path}`,
      hint: "run campaignctl import without --check to write it, and review it",
    },
  ];
}
