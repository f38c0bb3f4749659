/**
 * The event outbox: the one seam between what happens in the sandbox (simulated sends, inbound
 * replies, replies sent through the API) and webhook delivery. Call inside `store.mutate`.
 */
import type { EventKind } from "../../contract/limits.js";
import type { Store } from "../state/store.js";
import type { EventRecord, World } from "../state/world.js";

export function emitEvent(
  store: Store,
  world: World,
  event: { kind: EventKind; organizationId: string; payload: Record<string, unknown>; at: string },
): EventRecord {
  const record: EventRecord = {
    id: `evt_${store.nextId(world).replaceAll("-", "")}`,
    kind: event.kind,
    organization_id: event.organizationId,
    payload: event.payload,
    created_at: event.at,
  };
  world.events.push(record);
  return record;
}
