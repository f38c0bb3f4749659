/**
 * Read-only registrations and assets: GET /toll-free-verifications/{id}, GET /media/{id},
 * GET /campaigns and GET /contact-lists (filters `organization_id`, `brand_id`). A missing record is
 * 404 NOT_FOUND; one outside the key's hierarchy is 403 ORG_ACCESS_DENIED.
 */
import type { ApiRoute } from "../context.js";
import { notFound, ok, orgAccessDenied } from "../http/responses.js";
import { contactListView, mediaView, tenDlcCampaignView, tollFreeVerificationView } from "../views.js";
import { isResponse, orgScope } from "./filters.js";

export const registrationRoutes: readonly ApiRoute[] = [
  {
    method: "GET",
    template: "/toll-free-verifications/{id}",
    handler: ({ params, auth, sandbox }) => {
      const w = sandbox.store.world;
      const t = w.tollFreeVerifications[params.id ?? ""];
      if (t === undefined) return notFound("NOT_FOUND", "Toll-free verification");
      if (!auth.orgIds.has(t.organization_id)) return orgAccessDenied();
      return ok(tollFreeVerificationView(w, t));
    },
  },
  {
    method: "GET",
    template: "/media/{id}",
    handler: ({ params, auth, sandbox }) => {
      const m = sandbox.store.world.media[params.id ?? ""];
      if (m === undefined) return notFound("NOT_FOUND", "Media file");
      if (!auth.orgIds.has(m.organization_id)) return orgAccessDenied();
      return ok(mediaView(m));
    },
  },
  {
    method: "GET",
    template: "/campaigns",
    handler: ({ query, auth, sandbox }) => {
      const w = sandbox.store.world;
      const orgs = orgScope(w, auth, query.get("organization_id"));
      if (isResponse(orgs)) return orgs;
      const brand = query.get("brand_id");
      return ok(
        Object.values(w.tenDlcCampaigns)
          .filter(
            (c) => orgs.has(c.organization_id) && (brand === null || brand === "" || c.brand_id === brand),
          )
          .map((c) => tenDlcCampaignView(w, c)),
      );
    },
  },
  {
    method: "GET",
    template: "/contact-lists",
    handler: ({ query, auth, sandbox }) => {
      const w = sandbox.store.world;
      const orgs = orgScope(w, auth, query.get("organization_id"));
      if (isResponse(orgs)) return orgs;
      const brand = query.get("brand_id");
      // A suppression list is a contact list used to leave contacts out; the contract has no
      // separate read for them, so this one lists both (a project's suppression_list_ids resolve here).
      return ok(
        [...Object.values(w.contactLists), ...Object.values(w.suppressionLists)]
          .filter(
            (l) => orgs.has(l.organization_id) && (brand === null || brand === "" || l.brand_id === brand),
          )
          .map((l) => contactListView(w, l)),
      );
    },
  },
];
