/**
 * The emulated bulk upsert keeps a per-list address index between requests: a batch reads only
 * the contacts its rows touch (O(batch), not O(list)), and the index follows the list through
 * appends, updates, a replaced contacts array and contacts added elsewhere.
 */
import { describe, expect, it } from "vitest";
import { upsertContacts } from "../../src/sandbox/email/upsert.js";
import type { EmailListRecord } from "../../src/sandbox/state/world.js";

type Contacts = EmailListRecord["contacts"];

const rows = (from: number, n: number, prefix = "voter") =>
  Array.from({ length: n }, (_, i) => ({
    email: `${prefix}${from + i}@example.org`,
    fields: { n: from + i },
  }));

/** A list whose contacts array counts reads of its elements. */
function countedList(): { list: EmailListRecord; reads: () => number; reset: () => void } {
  let reads = 0;
  const target: Contacts = [];
  const contacts = new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) reads += 1;
      return Reflect.get(t, prop, receiver);
    },
  });
  return {
    list: { id: "l1", name: "L", organization_id: "o1", contacts },
    reads: () => reads,
    reset: () => {
      reads = 0;
    },
  };
}

describe("the emulated upsert's per-list index", () => {
  it("a batch on a large list reads only the contacts it touches", () => {
    const { list, reads, reset } = countedList();
    for (let b = 0; b < 10; b++) upsertContacts(list, rows(b * 1000, 1000), new Set());
    expect(list.contacts).toHaveLength(10_000);
    reset();
    const r = upsertContacts(
      list,
      [...rows(10_000, 5), { email: "VOTER3@example.org", fields: { ward: "3" } }],
      new Set(),
    );
    expect(r).toMatchObject({ written: 6, accepted: 6, rejected: 0, duplicates: 0 });
    // One read: the existing contact updated. Appends and new addresses read nothing.
    expect(reads()).toBe(1);
    expect(list.contacts).toHaveLength(10_005);
    expect(list.contacts[3]).toMatchObject({ email: "VOTER3@example.org", fields: { n: 3, ward: "3" } });
  });

  it("updates case-insensitively across batches, as the per-request index did", () => {
    const list: EmailListRecord = { id: "l1", name: "L", organization_id: "o1", contacts: [] };
    upsertContacts(list, [{ email: "Ana@Example.org", fields: { a: 1 } }], new Set());
    upsertContacts(list, [{ email: "ben@example.org" }], new Set());
    const r = upsertContacts(list, [{ email: "ana@example.ORG", fields: { b: 2 } }], new Set());
    expect(r.results[0]).toMatchObject({ status: "accepted", reason: null });
    expect(list.contacts.map((c) => c.email)).toEqual(["ana@example.ORG", "ben@example.org"]);
    expect(list.contacts[0]?.fields).toEqual({ a: 1, b: 2 });
  });

  it("follows a replaced contacts array and contacts added outside the upsert", () => {
    const list: EmailListRecord = { id: "l1", name: "L", organization_id: "o1", contacts: [] };
    upsertContacts(list, [{ email: "ana@example.org" }], new Set());
    // A reset or a reloaded state file: a new array (the old index must not be used).
    list.contacts = [{ email: "zed@example.org", fields: {}, consent_source: null }];
    upsertContacts(list, [{ email: "ana@example.org" }], new Set());
    expect(list.contacts.map((c) => c.email)).toEqual(["zed@example.org", "ana@example.org"]);
    // A contact pushed elsewhere (the length no longer matches): the index is rebuilt, so an
    // upsert of that address updates it instead of appending a second copy.
    list.contacts.push({ email: "Cy@example.org", fields: {}, consent_source: null });
    upsertContacts(list, [{ email: "cy@example.org", fields: { c: 1 } }], new Set());
    expect(list.contacts.map((c) => c.email)).toEqual([
      "zed@example.org",
      "ana@example.org",
      "cy@example.org",
    ]);
    expect(list.contacts[2]?.fields).toEqual({ c: 1 });
  });
});
