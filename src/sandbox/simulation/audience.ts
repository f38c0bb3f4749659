/**
 * Audience compilation: the contacts of a project's contact lists in list order, deduplicated by
 * phone (the first list holding a phone gives its merge fields), minus every phone on one of its
 * suppression lists, minus opted-out phones (a phone opted out in any of the project's lists).
 */
import type { ContactRecord, ProjectRecord, SendRecipient, World } from "../state/world.js";

export function compileAudience(w: World, p: ProjectRecord): SendRecipient[] {
  const excluded = new Set<string>();
  for (const id of p.suppression_list_ids)
    for (const c of w.suppressionLists[id]?.contacts ?? []) excluded.add(c.phone);
  for (const id of p.contact_list_ids)
    for (const c of w.contactLists[id]?.contacts ?? []) if (c.opted_out) excluded.add(c.phone);
  const seen = new Set<string>();
  const recipients: SendRecipient[] = [];
  for (const id of p.contact_list_ids)
    for (const c of w.contactLists[id]?.contacts ?? []) {
      if (seen.has(c.phone) || excluded.has(c.phone)) continue;
      seen.add(c.phone);
      recipients.push({ phone: c.phone, list_id: id });
    }
  return recipients;
}

/** The contact record a recipient's fields come from (undefined when the list changed since). */
export function recipientContact(w: World, r: SendRecipient): ContactRecord | undefined {
  return w.contactLists[r.list_id]?.contacts.find((c) => c.phone === r.phone);
}
