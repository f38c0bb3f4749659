/**
 * Which endpoints receive an event: those subscribed to its kind whose organization is the event's
 * organization or one of its ancestors (a parent organization hears its sub-organizations), in the
 * order the endpoints were configured.
 */
import type { EventRecord, WebhookEndpointRecord, World } from "../state/world.js";

export function endpointsFor(w: World, event: EventRecord): WebhookEndpointRecord[] {
  const lineage = new Set<string>();
  for (let id: string | null = event.organization_id; id !== null && !lineage.has(id); ) {
    lineage.add(id);
    id = w.organizations[id]?.parent_id ?? null;
  }
  return Object.values(w.webhookEndpoints).filter(
    (e) => e.events.includes(event.kind) && lineage.has(e.organization_id),
  );
}
