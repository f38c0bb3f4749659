/**
 * How `replies plan` and `replies run` route: the projects with reply rules, each with its own
 * organization's key (route-owners.ts); what the cross-organization rule says of their answers is
 * among the diagnostics (errors: refused; warnings: allowed by the flag), before any answer.
 */
import type { SourceRange } from "../../diagnostics/diagnostic.js";
import { projectOwners } from "./owners.js";
import type { RoutingResult } from "./route-owners.js";
import type { OwnerRouter } from "./router.js";
import { routeAndCheckWrites } from "./write-check.js";

export function routeReplies(
  router: OwnerRouter,
  projects: readonly {
    readonly id: string;
    readonly address: string;
    readonly organization?: string;
    readonly locate?: (path: readonly (string | number)[]) => SourceRange;
    readonly replies?: unknown;
  }[],
  flags: { readonly allowCrossOrganizationKey?: boolean },
): Promise<RoutingResult> {
  const owners = projectOwners(projects.filter((p) => p.replies !== undefined));
  return routeAndCheckWrites(
    router,
    owners,
    { write: "reply", owners },
    { allowCrossOrganizationKey: flags.allowCrossOrganizationKey === true },
  );
}

/**
 * The reply projects (addresses) that no key reads now: their organization's key could not be used
 * (routing's warning). A conversations listing does not see them; `replies run` keeps its cursor.
 */
export function unreadReplyProjects(
  router: OwnerRouter,
  projects: readonly { readonly id: string; readonly address: string; readonly replies?: unknown }[],
): string[] {
  return projectOwners(projects.filter((p) => p.replies !== undefined))
    .filter((owner) => router.ownerClient(owner) === null)
    .map((owner) => owner.address);
}
