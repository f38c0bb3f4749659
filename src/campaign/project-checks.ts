/** Rules across a project's own fields that the schema cannot express well. Pure. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ProjectSpec } from "./model.js";

export function checkProject(project: ProjectSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (project.state === "scheduled" && project.schedule === undefined) {
    out.push({
      severity: "error",
      code: "campaign.schedule-missing",
      message: `project \`${project.address}\` wants \`state: scheduled\` but has no \`schedule\` block`,
      range: project.locate(["state"]),
      hint: "add `schedule: { at: ..., timezone: ... }`, or choose another state",
    });
  }
  if (project.channel === "10dlc" && project.tollFreeVerification !== undefined) {
    out.push({
      severity: "error",
      code: "campaign.channel-mismatch",
      message: `project \`${project.address}\` is on channel 10dlc but names a toll-free verification`,
      range: project.locate(["toll_free_verification"]),
      hint: "a 10DLC project names its 10DLC registration under `campaign`",
    });
  }
  if (project.channel === "toll-free" && project.tenDlcCampaign !== undefined) {
    out.push({
      severity: "error",
      code: "campaign.channel-mismatch",
      message: `project \`${project.address}\` is on channel toll-free but names a 10DLC campaign`,
      range: project.locate(["campaign"]),
      hint: "a toll-free project names its verification under `toll_free_verification`",
    });
  }
  return out;
}
