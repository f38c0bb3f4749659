/**
 * The per-list address index of the emulated bulk upsert: lower-cased address -> position in the
 * list's `contacts`, kept between requests so a batch costs O(batch), not O(list).
 *
 * Invariant: the index describes exactly the `contacts` array it is keyed by, as long as only
 * `upsertContacts` changes that array (it appends through `indexAppend`). It lives beside the world,
 * not in it: the world is persisted as JSON, and the index is derived data. It is keyed by the
 * `contacts` array itself (a WeakMap), so a reset, a reloaded state file or a replaced array gets a
 * fresh index, built once from the contacts; a length that no longer matches (a change made
 * elsewhere) rebuilds it too. Built as the former per-request index was: a later contact with the
 * same address wins.
 */
import type { EmailListRecord } from "../state/world.js";

type Contacts = EmailListRecord["contacts"];

interface Index {
  readonly byEmail: Map<string, number>;
  /** `contacts.length` when the index was last brought up to date. */
  length: number;
}

const indexes = new WeakMap<Contacts, Index>();

/** The list's index, built from its contacts when missing or out of date. */
export function listIndex(contacts: Contacts): ReadonlyMap<string, number> {
  return current(contacts).byEmail;
}

/** Records that `contacts` gained, at its end, a contact with lower-cased address `key`. */
export function indexAppend(contacts: Contacts, key: string): void {
  const known = indexes.get(contacts);
  if (known === undefined || known.length !== contacts.length - 1) {
    current(contacts);
    return;
  }
  known.byEmail.set(key, contacts.length - 1);
  known.length = contacts.length;
}

function current(contacts: Contacts): Index {
  const known = indexes.get(contacts);
  if (known !== undefined && known.length === contacts.length) return known;
  const fresh: Index = {
    byEmail: new Map(contacts.map((c, i) => [c.email.toLowerCase(), i])),
    length: contacts.length,
  };
  indexes.set(contacts, fresh);
  return fresh;
}
