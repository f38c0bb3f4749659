/**
 * The names completion offers and hover explains, from the snapshot's organization of a document,
 * pure: each kind of record's names with what to show beside them, and the merge fields a tag may
 * name with where each comes from.
 */
import { STANDARD_FIELDS } from "../../src/contract/limits.js";
import type { SnapshotOrganization } from "../../src/plan/snapshot.js";
import type { NameChoice, NameKey } from "./completion.js";
import type { DocumentFacts } from "./document-facts.js";

/** The names of `key`'s records in `org` (lists serve as suppression lists too). */
export function namesOf(org: SnapshotOrganization, key: NameKey): NameChoice[] {
  switch (key) {
    case "contact_lists":
    case "suppression_lists":
      return org.contact_lists.map((l) => ({ name: l.name, detail: `contact list ${l.id}` }));
    case "phone_numbers":
      return org.phone_numbers.map((n) => ({
        name: n.number,
        detail: `${n.channel} number${n.nickname === null ? "" : ` "${n.nickname}"`}, ${n.status}`,
      }));
    case "brand":
      return org.brands.map((b) => ({ name: b.name, detail: `brand ${b.id}` }));
    case "campaign":
      return org.registrations
        .filter((r) => r.kind === "10dlc")
        .map((r) => ({ name: r.name, detail: `10DLC campaign ${r.id}${r.status ? `, ${r.status}` : ""}` }));
    case "toll_free_verification":
      return org.registrations
        .filter((r) => r.kind === "toll-free")
        .map((r) => ({
          name: r.name,
          detail: `toll-free verification ${r.id}${r.status ? `, ${r.status}` : ""}`,
        }));
    case "domain":
      return org.tracking_domains.map((id) => ({ name: id, detail: "tracking domain (by id)" }));
  }
}

/** Every field a tag may name: standard, the file's `fields` and `merge_defaults`, the snapshot's. */
export function mergeFieldsOf(
  facts: DocumentFacts,
  org: SnapshotOrganization | undefined,
): Map<string, string> {
  const fields = new Map<string, string>();
  for (const f of STANDARD_FIELDS) fields.set(f, "standard field");
  for (const f of facts.fields) if (!fields.has(f)) fields.set(f, "declared under fields");
  for (const [f, value] of Object.entries(facts.mergeDefaults))
    fields.set(f, `${fields.get(f) ?? "field"}; merge_defaults: ${JSON.stringify(value)}`);
  for (const f of org?.merge_fields ?? [])
    if (!fields.has(f)) fields.set(f, `used by ${org?.name}'s projects`);
  return fields;
}
