/**
 * Live project ids described twice across the loaded files: the same id (`campaign.duplicate-id`)
 * or ids differing only in letter case (`campaign.ids-differ-in-case`). Pure; part of the checks
 * across files (assemble.ts `combineFiles`).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CrossProject } from "./cross-project.js";

/** The findings about ids of `projects` (in load order), each against the first project it repeats. */
export function duplicateIds(projects: readonly CrossProject[]): Diagnostic[] {
  // The first project of each id folded to lower case: the first of its exact id too when their ids
  // are equal. The first of an exact id is indexed on its own only when another spelling of it came
  // first (rare): one lookup a project, not two (this runs over every project of a run).
  const firstByFolded = new Map<string, CrossProject>();
  const firstOfOtherSpelling = new Map<string, CrossProject>();
  const out: Diagnostic[] = [];
  for (const project of projects) {
    const folded = project.id.toLowerCase();
    const other = firstByFolded.get(folded);
    if (other === undefined) {
      firstByFolded.set(folded, project);
      continue;
    }
    const first = other.id === project.id ? other : firstOfOtherSpelling.get(project.id);
    if (first === undefined) {
      firstOfOtherSpelling.set(project.id, project);
      out.push(idsDifferInCase(other, project));
      continue;
    }
    out.push({
      severity: "error",
      code: "campaign.duplicate-id",
      message: `projects \`${first.address}\` and \`${project.address}\` both describe live project ${project.id}`,
      range: project.locate(["id"]),
      hint: "each live project is described once; fix the id of one of them",
      related: [{ message: `\`${first.address}\` has the same id`, range: first.locate(["id"]) }],
    });
  }
  return out;
}

/** Ids are UUIDs, and UUIDs are case-insensitive (RFC 9562): both spellings name one live project. */
function idsDifferInCase(first: CrossProject, project: CrossProject): Diagnostic {
  return {
    severity: "error",
    code: "campaign.ids-differ-in-case",
    message: `projects \`${first.address}\` and \`${project.address}\` have ids that differ only in case (${first.id}, ${project.id})`,
    range: project.locate(["id"]),
    hint: "ids name live projects and letter case does not tell them apart: write the id as the dashboard shows it, once",
    related: [{ message: `\`${first.address}\` has the id ${first.id}`, range: first.locate(["id"]) }],
  };
}
