/** GET /organizations: the organizations the key can access (its own and all descendants). */
import type { ApiRoute } from "../context.js";
import { ok } from "../http/responses.js";
import { organizationView } from "../views.js";

export const organizationRoutes: readonly ApiRoute[] = [
  {
    method: "GET",
    template: "/organizations",
    handler: ({ auth, sandbox }) => {
      const w = sandbox.store.world;
      return ok(
        Object.keys(w.organizations)
          .filter((id) => auth.orgIds.has(id))
          .map((id) => organizationView(w, id)),
      );
    },
  },
];
