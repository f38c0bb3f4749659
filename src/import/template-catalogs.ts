/**
 * The catalogs one organization's names resolve in, for `import --template`: its own 10DLC
 * registrations, lists, numbers, media and toll-free verifications (and the brands they carry),
 * never another organization's, whatever the key can see (consent does not transfer between
 * senders). Organizations themselves stay all visible (an instance names its organization). Pure.
 */

import { buildCatalogs, type Catalogs } from "../plan/catalogs.js";
import type { LiveRead, LiveState } from "../plan/live.js";

/** The records an import read, without projects. */
export type ImportRecords = Omit<LiveState, "projects">;

function ownReads<T>(
  reads: ReadonlyMap<string, LiveRead<T>>,
  owner: (value: T) => string,
  organizationId: string,
): Map<string, LiveRead<T>> {
  return new Map(
    [...reads].filter(([, read]) => read.kind === "found" && owner(read.value) === organizationId),
  );
}

export function organizationCatalogs(records: ImportRecords, organizationId: string): Catalogs {
  return buildCatalogs({
    organizations: records.organizations,
    tenDlcCampaigns: records.tenDlcCampaigns.filter((c) => c.org_id === organizationId),
    contactLists: records.contactLists.filter((l) => l.org_id === organizationId),
    phoneNumbers: records.phoneNumbers.filter((n) => n.org_id === organizationId),
    projects: new Map(),
    media: ownReads(records.media, (m) => m.organization_id, organizationId),
    tollFreeVerifications: ownReads(records.tollFreeVerifications, (t) => t.org_id, organizationId),
  });
}
