/**
 * Email suppressions: addresses an organization must not mail (they also bind its descendants).
 * They come from the fixture (`email.suppressions`) or `POST /_sandbox/email/suppressions`, and a
 * bulk upsert never removes one: they survive a re-import of a list.
 */
import type { AdminRoute } from "../context.js";
import { type ApiResponse, invalid, ok } from "../http/responses.js";
import type { World } from "../state/world.js";

/** Lower-cased addresses suppressed for `orgId`: its own suppressions and its ancestors'. */
export function suppressedFor(w: World, orgId: string): Set<string> {
  const chain = new Set<string>();
  for (let id: string | null = orgId; id !== null && !chain.has(id); ) {
    chain.add(id);
    id = w.organizations[id]?.parent_id ?? null;
  }
  const out = new Set<string>();
  for (const s of Object.values(w.emailSuppressions)) if (chain.has(s.organization_id)) out.add(s.email);
  return out;
}

export const suppressionAdminRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/email/suppressions",
    handler: ({ query, sandbox }) => {
      const org = query.get("organization_id");
      return ok(
        Object.values(sandbox.store.world.emailSuppressions).filter(
          (s) => org === null || s.organization_id === org,
        ),
      );
    },
  },
  {
    method: "POST",
    template: "/email/suppressions",
    bodySchema: "emailSuppression",
    handler: ({ body, sandbox }): ApiResponse => {
      const { store, clock } = sandbox;
      const b = body as { organization_id: string; email: string; reason?: string };
      if (store.world.organizations[b.organization_id] === undefined)
        return invalid(["organization_id"], "no such organization");
      const email = b.email.trim().toLowerCase();
      const existing = Object.values(store.world.emailSuppressions).find(
        (s) => s.organization_id === b.organization_id && s.email === email,
      );
      if (existing !== undefined) return ok(existing);
      const record = store.mutate((w) => {
        const id = `sup_${store.nextId(w).replaceAll("-", "")}`;
        w.emailSuppressions[id] = {
          id,
          organization_id: b.organization_id,
          email,
          reason: b.reason ?? "unsubscribed",
          created_at: clock.now().toISOString(),
        };
        return w.emailSuppressions[id];
      });
      return ok(record, 201);
    },
  },
];
