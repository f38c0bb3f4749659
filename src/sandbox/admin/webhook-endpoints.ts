/**
 * The dashboard's webhook settings (Admin, Webhooks) as `/_sandbox` routes:
 * `POST /_sandbox/webhook-endpoints` adds an endpoint (a URL, the kinds it hears, its organization,
 * a name) and answers it with its signing secret, the only time the secret is shown, as in the
 * dashboard; `GET /_sandbox/webhook-endpoints` lists every endpoint (the fixture's too) without
 * secrets. An added endpoint is stored like a fixture's `webhook_endpoints` entry (the world's
 * `webhookEndpoints`, so in the state file) and hears the events emitted from then on.
 */
import { createHash } from "node:crypto";
import { EVENT_KINDS, type EventKind } from "../../contract/limits.js";
import type { AdminRoute } from "../context.js";
import { invalid, ok } from "../http/responses.js";
import type { WebhookEndpointRecord, World } from "../state/world.js";

/** The body of `POST /_sandbox/webhook-endpoints`. */
interface EndpointRequest {
  readonly url: string;
  readonly events?: readonly EventKind[];
  readonly organization_id?: string;
  readonly name?: string;
  readonly secret?: string;
}

/** An endpoint as the list shows it: everything but the secret. */
function listed(e: WebhookEndpointRecord): Omit<WebhookEndpointRecord, "secret"> {
  return { id: e.id, organization_id: e.organization_id, name: e.name, url: e.url, events: [...e.events] };
}

/** `wh_1`, `wh_2`, ...: the first free one, so the ids depend only on the endpoints already there. */
function nextEndpointId(w: World): string {
  let n = Object.keys(w.webhookEndpoints).length + 1;
  while (w.webhookEndpoints[`wh_${n}`] !== undefined) n += 1;
  return `wh_${n}`;
}

/** A secret derived from the seed and the endpoint id: the same world and steps give the same secret. */
export function generatedSecret(seed: number, endpointId: string): string {
  const digest = createHash("sha256").update(`campaignctl-sandbox:webhook-secret:${seed}:${endpointId}`);
  return `whsec_${digest.digest("hex").slice(0, 32)}`;
}

/** Why `url` cannot receive deliveries, or undefined when it can. */
function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url must be an absolute http or https URL such as http://127.0.0.1:8787/hooks; got ${JSON.stringify(url)}`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `url must use http or https; got ${parsed.protocol.slice(0, -1)}`;
  if (parsed.username !== "" || parsed.password !== "")
    return "url must not carry a user name or password: deliveries are authenticated by their signature";
  return undefined;
}

/** The first organization without a parent, in the fixture's order. */
function firstTopLevel(w: World): string | undefined {
  return Object.values(w.organizations).find((o) => o.parent_id === null)?.id;
}

export const webhookEndpointRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/webhook-endpoints",
    handler: ({ sandbox }) => ok(Object.values(sandbox.store.world.webhookEndpoints).map(listed)),
  },
  {
    method: "POST",
    template: "/webhook-endpoints",
    bodySchema: "webhookEndpoint",
    handler: ({ body, sandbox }) => {
      const request = body as EndpointRequest;
      const { store, config } = sandbox;
      const problem = urlProblem(request.url);
      if (problem !== undefined) return invalid(["url"], problem, "invalid_string");
      const organizationId = request.organization_id ?? firstTopLevel(store.world);
      if (organizationId === undefined || store.world.organizations[organizationId] === undefined)
        return invalid(
          ["organization_id"],
          request.organization_id === undefined
            ? "The world has no top-level organization to default to; pass organization_id"
            : `No organization ${JSON.stringify(organizationId)}; the organizations are: ${Object.values(
                store.world.organizations,
              )
                .map((o) => `${o.id} (${o.name})`)
                .join(", ")}`,
        );
      const endpoint = store.mutate((w) => {
        const id = nextEndpointId(w);
        const record: WebhookEndpointRecord = {
          id,
          organization_id: organizationId,
          name: request.name ?? id,
          url: request.url,
          secret: request.secret ?? generatedSecret(config.seed, id),
          events: [...(request.events ?? EVENT_KINDS)],
        };
        w.webhookEndpoints[id] = record;
        return record;
      });
      return ok({ ...listed(endpoint), secret: endpoint.secret }, 201);
    },
  },
];
