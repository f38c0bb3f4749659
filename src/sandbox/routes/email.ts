/**
 * The email endpoints (early access; see `email/access.ts` for the gate): POST
 * /email/lists/{id}/contacts (bulk upsert), GET /email/campaigns (cursor pages; `limit`, `cursor`,
 * `status`, `search`) and GET /email/domains/{id}. Order of answers: 403 EMAIL_EARLY_ACCESS, 404,
 * 403 ORG_ACCESS_DENIED, 400 VALIDATION_ERROR, then the result.
 */
import { EMAIL_CAMPAIGN_STATUSES, NAME_FILTER_MAX } from "../../contract/limits.js";
import type { EmailCampaign, SendingDomain } from "../../contract/resources.js";
import type { ApiRoute } from "../context.js";
import { decodeCursor, limitParam, pageOf } from "../conversations/paging.js";
import { earlyAccess, emailEnabled, emailRecordGate } from "../email/access.js";
import { suppressedFor } from "../email/suppressions.js";
import { upsertContacts } from "../email/upsert.js";
import { checkBody } from "../http/body.js";
import { invalid, notFound, ok } from "../http/responses.js";
import type { EmailCampaignRecord, SendingDomainRecord } from "../state/world.js";
import { enumParam, isResponse } from "./filters.js";

export const emailRoutes: readonly ApiRoute[] = [
  {
    method: "POST",
    template: "/email/lists/{id}/contacts",
    handler: ({ params, body, auth, sandbox }) => {
      const { store } = sandbox;
      const list = store.world.emailLists[params.id ?? ""];
      const refused = emailRecordGate(store.world, auth, list?.organization_id, () =>
        notFound("NOT_FOUND", "Email list"),
      );
      if (refused !== undefined) return refused;
      if (list === undefined) return notFound("NOT_FOUND", "Email list");
      const bad = checkBody("emailContacts", body);
      if (bad !== undefined) return bad;
      const rows = (body as { contacts: unknown[] }).contacts;
      const suppressed = suppressedFor(store.world, list.organization_id);
      return ok(store.mutate(() => upsertContacts(list, rows, suppressed)));
    },
  },
  {
    method: "GET",
    template: "/email/campaigns",
    handler: ({ query, auth, sandbox }) => {
      const w = sandbox.store.world;
      const orgs = [...auth.orgIds].filter((id) => emailEnabled(w, id));
      if (orgs.length === 0) return earlyAccess();
      const limit = limitParam(query);
      if (isResponse(limit)) return limit;
      const status = enumParam(query, "status", EMAIL_CAMPAIGN_STATUSES);
      if (isResponse(status)) return status;
      const search = query.get("search") ?? "";
      if (search.length > NAME_FILTER_MAX)
        return invalid(["search"], `search must be at most ${NAME_FILTER_MAX} characters`, "too_big");
      let after: { t: string; id: string } | null = null;
      const rawCursor = query.get("cursor");
      if (rawCursor !== null && rawCursor !== "") {
        const cursor = decodeCursor(rawCursor, "email_campaigns");
        if (isResponse(cursor)) return cursor;
        if (
          typeof cursor.t !== "string" ||
          typeof cursor.id !== "string" ||
          cursor.status !== status ||
          cursor.search !== search
        )
          return invalid(
            ["cursor"],
            "cursor was issued for other filters; drop the filters or the cursor",
            "custom",
          );
        after = { t: cursor.t, id: cursor.id };
      }
      const enabled = new Set(orgs);
      const needle = search.toLowerCase();
      const a = after;
      const rows = Object.values(w.emailCampaigns)
        .filter(
          (c) =>
            enabled.has(c.organization_id) &&
            (status === null || c.status === status) &&
            (needle === "" || c.name.toLowerCase().includes(needle)) &&
            (a === null || c.created_at < a.t || (c.created_at === a.t && c.id < a.id)),
        )
        .sort((x, y) => y.created_at.localeCompare(x.created_at) || y.id.localeCompare(x.id));
      return ok(
        pageOf(rows, limit, campaignView, (c) => ({
          kind: "email_campaigns",
          status,
          search,
          t: c.created_at,
          id: c.id,
        })),
      );
    },
  },
  {
    method: "GET",
    template: "/email/domains/{id}",
    handler: ({ params, auth, sandbox }) => {
      const w = sandbox.store.world;
      const domain = w.sendingDomains[params.id ?? ""];
      const refused = emailRecordGate(w, auth, domain?.organization_id, () =>
        notFound("NOT_FOUND", "Sending domain"),
      );
      if (refused !== undefined) return refused;
      return domain === undefined ? notFound("NOT_FOUND", "Sending domain") : ok(domainView(domain));
    },
  },
];

function campaignView(c: EmailCampaignRecord): EmailCampaign {
  const { organization_id: _org, ...wire } = c;
  return wire;
}

function domainView(d: SendingDomainRecord): SendingDomain {
  const { organization_id: _org, ...wire } = d;
  return wire;
}
