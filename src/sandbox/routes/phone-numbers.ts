/**
 * GET /phone-numbers. Filters: `organization_id` (that subtree), `brand_id` and `campaign_id`
 * (10DLC numbers only, so other channels drop out when either is given), `channel`, `owner_type`.
 * Numbers owned inside the key's (filtered) subtree appear as owned rows; numbers a parent shared
 * with an organization of that subtree, and whose owner is outside it, appear as shared rows.
 */
import { OWNER_TYPES, PHONE_CHANNELS } from "../../contract/limits.js";
import type { PhoneNumber } from "../../contract/resources.js";
import type { ApiRoute } from "../context.js";
import { ok } from "../http/responses.js";
import { ownedPhoneView, sharedPhoneView } from "../views.js";
import { enumParam, isResponse, orgScope } from "./filters.js";

export const phoneNumberRoutes: readonly ApiRoute[] = [
  {
    method: "GET",
    template: "/phone-numbers",
    handler: ({ query, auth, sandbox }) => {
      const w = sandbox.store.world;
      const orgs = orgScope(w, auth, query.get("organization_id"));
      if (isResponse(orgs)) return orgs;
      const channel = enumParam(query, "channel", PHONE_CHANNELS);
      if (isResponse(channel)) return channel;
      const ownerType = enumParam(query, "owner_type", OWNER_TYPES);
      if (isResponse(ownerType)) return ownerType;
      const brand = query.get("brand_id") || null;
      const campaign = query.get("campaign_id") || null;
      const rows: PhoneNumber[] = [];
      for (const n of Object.values(w.phoneNumbers)) {
        if (orgs.has(n.organization_id)) rows.push(ownedPhoneView(w, n));
        else
          for (const s of n.shared_with)
            if (orgs.has(s.organization_id)) rows.push(sharedPhoneView(w, n, s.organization_id, s.nickname));
      }
      return ok(
        rows.filter(
          (r) =>
            (channel === null || r.channel === channel) &&
            (ownerType === null || r.owner_type === ownerType) &&
            (brand === null || (r.channel === "10dlc" && r.brand_id === brand)) &&
            (campaign === null || (r.channel === "10dlc" && r.campaign_id === campaign)),
        ),
      );
    },
  },
];
