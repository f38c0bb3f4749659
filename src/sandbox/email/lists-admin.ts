/**
 * `GET /_sandbox/email/lists/{id}`: an email list's contents as the sandbox holds them (the contract
 * has no read of email lists), so a test or a person can compare a sync's per-row results with what
 * the list holds. `GET /_sandbox/email/lists`: every list with its contact count.
 */
import type { AdminRoute } from "../context.js";
import { notFound, ok } from "../http/responses.js";

export const emailListAdminRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/email/lists",
    handler: ({ sandbox }) =>
      ok(
        Object.values(sandbox.store.world.emailLists).map((l) => ({
          id: l.id,
          name: l.name,
          organization_id: l.organization_id,
          contacts: l.contacts.length,
        })),
      ),
  },
  {
    method: "GET",
    template: "/email/lists/{id}",
    handler: ({ params, sandbox }) => {
      const list = sandbox.store.world.emailLists[params.id ?? ""];
      if (list === undefined) return notFound("NOT_FOUND", "Email list");
      return ok({
        id: list.id,
        name: list.name,
        organization_id: list.organization_id,
        contacts: list.contacts,
      });
    },
  },
];
