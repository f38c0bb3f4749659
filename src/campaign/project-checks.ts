/** Rules across a project's own fields that the schema cannot express well. Pure. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ProjectSpec } from "./model.js";
import { checkReplyRules } from "./reply-checks.js";

/**
 * US/Canada E.164 (+1, then a 10-digit number whose area code does not start with 0 or 1): the only
 * test phones the API accepts (design.md "Shapes the contract does not show"; the sandbox's rule).
 */
export const NANP_E164 = /^\+1[2-9][0-9]{9}$/;

export function checkProject(project: ProjectSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  project.test?.contacts.forEach((contact, index) => {
    if (NANP_E164.test(contact.phone)) return;
    out.push({
      severity: "error",
      code: "campaign.test-phone-not-nanp",
      message: `project \`${project.address}\`: test phone ${contact.phone} is not a US/Canada number, and the API only sends tests to +1 numbers`,
      range: project.locate(["test", "contacts", index, "phone"]),
      hint: "use a US/Canada number in E.164 form: +1, area code, number (like +15035550123)",
    });
  });
  out.push(...repeatedTestPhones(project));
  const guard = project.guard;
  if (guard !== undefined && guard.maxFailureRate === undefined && guard.maxOptOutRate === undefined) {
    out.push({
      severity: "error",
      code: "campaign.guard-without-rate",
      message: `project \`${project.address}\`: its \`guard\` sets no rate, only \`min_sample\`, so \`campaignctl watch\` would never pause it`,
      range: project.locate(["guard"]),
      hint: "add `max_failure_rate` (failed over sent, e.g. 0.05) or `max_opt_out_rate` (opted out over delivered, e.g. 0.02), or remove the `guard`",
    });
  }
  if (project.state === "scheduled" && project.schedule === undefined) {
    out.push({
      severity: "error",
      code: "campaign.schedule-missing",
      message: `project \`${project.address}\` wants \`state: scheduled\` but has no \`schedule\` block`,
      range: project.locate(["state"]),
      hint:
        project.origin === undefined
          ? "add `schedule: { at: ..., timezone: ... }`, or choose another state"
          : 'add `schedule: {local: "2026-11-03T10:00"}` (a local time, read in the `timezone`) to the instance or the template, or choose another state',
    });
  }
  if ((project.state === "tested" || project.state === "scheduled") && project.message === undefined) {
    out.push({
      severity: "error",
      code: "campaign.message-missing",
      message: `project \`${project.address}\` wants \`state: ${project.state}\`, which sends, but describes no \`message\``,
      range: project.locate(["state"]),
      hint: "write the message the project sends (`campaignctl import` writes the live one), so that what goes out is reviewed; or choose `state: draft`",
    });
  }
  if (project.state === "scheduled" && project.contactLists === undefined) {
    out.push({
      severity: "error",
      code: "campaign.contact-lists-missing",
      message: `project \`${project.address}\` wants \`state: scheduled\` but does not say which \`contact_lists\` it goes to`,
      range: project.locate(["state"]),
      hint: "list the contact lists the schedule sends to (by name or id), so that who receives it is reviewed",
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
  // Only a project with `replies:` has reply rules to check (the revocation words are built per call).
  if (project.replies !== undefined) out.push(...checkReplyRules(project));
  return out;
}

/**
 * A phone listed twice in one project's test block would get two test texts (the API sends one per
 * listed contact) and would count twice toward the policy's `min_test_contacts`: an error at the
 * repeat, with the first listing as the related place.
 */
function repeatedTestPhones(project: ProjectSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, number>();
  project.test?.contacts.forEach((contact, index) => {
    const earlier = first.get(contact.phone);
    if (earlier === undefined) {
      first.set(contact.phone, index);
      return;
    }
    out.push({
      severity: "error",
      code: "campaign.test-phone-repeated",
      message: `project \`${project.address}\`: test phone ${contact.phone} is listed twice, so it would get two test texts`,
      range: project.locate(["test", "contacts", index, "phone"]),
      hint: "list each test phone once (add another reviewer's phone to reach the policy's min_test_contacts)",
      related: [
        {
          message: `${contact.phone} is first listed here`,
          range: project.locate(["test", "contacts", earlier, "phone"]),
        },
      ],
    });
  });
  return out;
}
