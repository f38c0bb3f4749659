/**
 * Preconditions of sending, checked on what the live project will send with (its attached media,
 * registration, numbers and lists, plus anything the file names). Pure. Each failure is an error
 * diagnostic with its own code and the action kinds it blocks: test and schedule, or schedule only
 * (no recipients: a test goes to test contacts). Pause is never blocked by a precondition.
 */
import type { ProjectSpec, SpecPath } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import type { PlanCode } from "../diagnostics/codes/plan.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveState } from "./live.js";
import type { ResolvedRef, ResolvedReferences } from "./resolve.js";
import type { ActionKind } from "./types.js";

/** Status values the contract shows for a sendable record. */
export const MEDIA_READY = "ready";
export const TEN_DLC_PROVISIONED = "MNO_PROVISIONED";
export const TOLL_FREE_VERIFIED = "Verified";
export const PHONE_ACTIVE = "active";

/** A failed precondition and the action kinds it blocks. */
export interface PreconditionFailure {
  readonly diagnostic: Diagnostic;
  readonly blocks: readonly ActionKind[];
}

const SENDING: readonly ActionKind[] = ["test", "schedule"];

export function checkPreconditions(
  spec: ProjectSpec,
  project: Project,
  live: LiveState,
  refs: ResolvedReferences,
): PreconditionFailure[] {
  const failures: PreconditionFailure[] = [];
  const fail = (code: PlanCode, message: string, path: SpecPath, hint: string, blocks = SENDING): void => {
    failures.push({
      diagnostic: {
        severity: "error",
        code,
        message: `${spec.address}: ${message}`,
        range: spec.locate(path),
        hint,
      },
      blocks,
    });
  };
  const pathOf = (key: string, described: readonly ResolvedRef[] | undefined, id: string): SpecPath => {
    const index = described?.findIndex((r) => r.id === id) ?? -1;
    return index >= 0 ? [key, index] : [key];
  };

  for (const id of union(project.media_ids, refs.media)) {
    const read = live.media.get(id);
    const status = read === undefined ? "not read" : read.kind === "found" ? read.value.status : read.kind;
    if (status !== MEDIA_READY)
      fail(
        "plan.media-not-ready",
        `media ${read?.kind === "found" ? read.value.name : id} is ${status}, not ${MEDIA_READY}`,
        pathOf("media", refs.media, id),
        "wait for the upload to finish processing, or attach another file in the dashboard",
      );
  }

  const tenDlc = project.channel === "10dlc";
  const tollFree = project.channel === "toll-free";
  if (tenDlc) {
    const registration = live.tenDlcCampaigns.find((c) => c.id === project.campaign_id);
    if (registration === undefined || registration.campaign_status !== TEN_DLC_PROVISIONED)
      fail(
        "plan.ten-dlc-campaign-not-provisioned",
        registration === undefined
          ? `10DLC campaign ${project.campaign_id || "(none)"} is not visible to the key`
          : `10DLC campaign ${registration.name} is ${registration.campaign_status}, not ${TEN_DLC_PROVISIONED}`,
        ["campaign"],
        "carriers must provision the 10DLC campaign before it can send; check its registration in the dashboard",
      );
  }
  if (tollFree) {
    const id = project.toll_free_verification_id;
    const read = id === null ? undefined : live.tollFreeVerifications.get(id);
    if (read?.kind !== "found" || read.value.status !== TOLL_FREE_VERIFIED)
      fail(
        "plan.toll-free-not-verified",
        read?.kind === "found"
          ? `toll-free verification ${read.value.name} is ${read.value.status}, not ${TOLL_FREE_VERIFIED}${
              read.value.rejection_reason === null ? "" : ` (${read.value.rejection_reason})`
            }`
          : `toll-free verification ${id ?? "(none)"} could not be read (${read?.kind ?? "not read"})`,
        ["toll_free_verification"],
        "a toll-free number sends only once its verification is Verified; check it in the dashboard",
      );
  }

  for (const id of union(project.phone_number_ids, refs.phoneNumbers)) {
    const path = pathOf("phone_numbers", refs.phoneNumbers, id);
    const number = live.phoneNumbers.find((n) => n.id === id);
    if (number === undefined || number.status !== PHONE_ACTIVE) {
      fail(
        "plan.phone-number-not-active",
        number === undefined
          ? `phone number ${id} is not visible to the key`
          : `phone number ${number.number} is ${number.status}, not ${PHONE_ACTIVE}`,
        path,
        "use an active number of the project's registration, or fix the number in the dashboard",
      );
      continue;
    }
    const registered = tenDlc
      ? number.campaign_id === project.campaign_id
      : tollFree
        ? number.toll_free_verification_id === project.toll_free_verification_id
        : false;
    if (!registered)
      fail(
        "plan.phone-number-not-registered",
        `phone number ${number.number} is not registered to the project's ${
          tenDlc
            ? `10DLC campaign ${project.campaign_id}`
            : `toll-free verification ${project.toll_free_verification_id ?? "(none)"}`
        }`,
        path,
        "attach a number of the project's registration, or register this number to it in the dashboard",
      );
  }

  const visible = new Set(live.contactLists.map((l) => l.id));
  const lists: [string, readonly string[], ResolvedReferences["contactLists"]][] = [
    ["contact_lists", project.contact_list_ids, refs.contactLists],
    ["suppression_lists", project.suppression_list_ids, refs.suppressionLists],
  ];
  for (const [key, ids, described] of lists)
    for (const id of ids)
      if (!visible.has(id))
        fail(
          "plan.contact-list-not-visible",
          `${key === "contact_lists" ? "contact" : "suppression"} list ${id} of the live project is not visible to the key`,
          pathOf(key, described, id),
          "use a key whose organization tree includes the list, or change the project's lists in the dashboard",
        );

  if (project.total_recipients <= 0)
    fail(
      "plan.no-recipients",
      "the project has no recipients (total_recipients is 0)",
      ["contact_lists"],
      "attach a contact list with contacts, or wait for the audience to compile, before scheduling",
      ["schedule"],
    );
  return failures;
}

/** Live ids, then described ids not already among them. */
function union(live: readonly string[], described: readonly ResolvedRef[] | undefined): string[] {
  return [...new Set([...live, ...(described ?? []).map((r) => r.id)])];
}
