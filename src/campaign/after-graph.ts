/**
 * Checks the `after` ordering between projects: every entry names a declared address, and the
 * entries form no cycle. Pure; iterative, linear in projects plus edges.
 */
import type { Diagnostic, RelatedInformation } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../text/did-you-mean.js";
import type { CrossProject } from "./cross-project.js";

/**
 * `declared` is keyed by every address written in the loaded files, valid or not, so that an
 * invalid project does not also make every `after` naming it an error (combineFiles' own index of
 * them, not a copy: issue 36).
 */
export function checkAfter(
  projects: readonly CrossProject[],
  declared: ReadonlyMap<string, unknown>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Without any `after` entry there is nothing to name and no cycle (one 10 MiB file: 60,000 projects).
  if (!projects.some((p) => p.after.length > 0)) return out;
  const byAddress = addressIndex(projects);
  for (const project of projects) {
    if (project.after.length === 0) continue;
    project.after.forEach((target, index) => {
      if (declared.has(target)) return;
      const suggestion = didYouMean(target, declared.keys());
      out.push({
        severity: "error",
        code: "campaign.after-unknown",
        message: `project \`${project.address}\` is ordered after \`${target}\`, which no loaded file declares`,
        range: project.locate(["after", index]),
        hint: suggestion
          ? `did you mean \`${suggestion}\`?`
          : "load the file that declares it, or remove the entry",
        ...(suggestion
          ? { fixes: [{ title: `Change to \`${suggestion}\``, edit: "replace-text", text: suggestion }] }
          : {}),
      });
    });
  }
  out.push(...findCycles(projects, byAddress));
  return out;
}

/** Each project by its address (the last of an address wins, as `new Map(entries)`); one pass, no pairs. */
export function addressIndex<P extends CrossProject>(projects: readonly P[]): Map<string, P> {
  const byAddress = new Map<string, P>();
  for (const project of projects) byAddress.set(project.address, project);
  return byAddress;
}

type Mark = "active" | "done";

interface Frame {
  readonly project: CrossProject;
  next: number;
}

function findCycles(
  projects: readonly CrossProject[],
  byAddress: ReadonlyMap<string, CrossProject>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const marks = new Map<string, Mark>();
  for (const root of projects) {
    // A project without `after` closes no cycle: reached from another, it is entered and left at once.
    if (root.after.length === 0 || marks.has(root.address)) continue;
    const stack: Frame[] = [{ project: root, next: 0 }];
    marks.set(root.address, "active");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      const edgeIndex = frame.next++;
      const target = frame.project.after[edgeIndex];
      if (target === undefined) {
        marks.set(frame.project.address, "done");
        stack.pop();
        continue;
      }
      const next = byAddress.get(target);
      if (next === undefined) continue;
      const mark = marks.get(target);
      if (mark === "active") {
        out.push(cycleDiagnostic(stack, target, edgeIndex));
      } else if (mark === undefined) {
        marks.set(target, "active");
        stack.push({ project: next, next: 0 });
      }
    }
  }
  return out;
}

/** The cycle closed by the edge `stack.top -> target`, reported at that edge. */
function cycleDiagnostic(stack: readonly Frame[], target: string, edgeIndex: number): Diagnostic {
  const from = stack.findIndex((f) => f.project.address === target);
  const members = stack.slice(from);
  const names = [...members.map((f) => f.project.address), target];
  const closing = members[members.length - 1] as Frame;
  const related: RelatedInformation[] = members.slice(0, -1).map((f) => ({
    message: `\`${f.project.address}\` is ordered after \`${f.project.after[f.next - 1]}\``,
    range: f.project.locate(["after", f.next - 1]),
  }));
  return {
    severity: "error",
    code: "campaign.after-cycle",
    message: `\`after\` entries form a cycle: ${names.join(" -> ")}`,
    range: closing.project.locate(["after", edgeIndex]),
    hint: "remove one of the entries so the projects have an order",
    related,
  };
}
