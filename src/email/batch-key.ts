/**
 * The Idempotency-Key of one batch of an email list (design.md "Idempotency keys"): email batches
 * have no live version, so the key derives from the list id and the batch's content; a re-run of the
 * same file sends the same batches with the same keys and the API replays them. Pure.
 */
import { idempotencyKey } from "../api/idempotency-key.js";
import type { EmailContactInput } from "../contract/requests.js";

export function batchKey(listId: string, contacts: readonly EmailContactInput[]): string {
  return idempotencyKey({
    org: "",
    project_id: null,
    action: "email.upsert",
    body: { list_id: listId, contacts },
    based_on: null,
  });
}
