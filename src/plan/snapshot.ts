/**
 * The offline snapshot (`.campaignctl/snapshot.json`, schemas/snapshot.schema.json): the names a
 * campaign file may write, per organization, as `import` and `plan` last read them from the API,
 * so that the language server completes and explains names without a network request. Pure: built
 * from what a run already read; merged per organization into the snapshot already on disk, so a run
 * with one organization's key keeps what another organization's run wrote.
 *
 * Holds names and ids only (no contact data, no key): lists, numbers, brands, registrations,
 * tracking domains seen on projects, the merge fields the organization's projects use, and each
 * project's recipients and estimated cost as the API last gave them.
 */
import { STANDARD_FIELDS } from "../contract/limits.js";
import type {
  ContactList,
  Organization,
  PhoneNumber,
  Project,
  TenDlcCampaign,
  TollFreeVerification,
} from "../contract/resources.js";
import { parseMergeTags, tagsOf } from "../message/merge-tags.js";

export const SNAPSHOT_FORMAT_VERSION = 1;

/** Where the snapshot lives, relative to the directory of the campaign files. */
export const SNAPSHOT_PATH = ".campaignctl/snapshot.json";

export interface SnapshotName {
  readonly id: string;
  readonly name: string;
}

export interface SnapshotNumber {
  readonly id: string;
  readonly number: string;
  readonly nickname: string | null;
  readonly channel: string;
  readonly status: string;
}

export interface SnapshotRegistration extends SnapshotName {
  readonly kind: "10dlc" | "toll-free";
  readonly status: string | null;
}

export interface SnapshotProject extends SnapshotName {
  readonly total_recipients: number;
  readonly estimated_cost_cents: number;
}

/** One organization's names. Invariant: every list is sorted by name (numbers by number), ids unique. */
export interface SnapshotOrganization {
  readonly id: string;
  readonly name: string;
  readonly contact_lists: readonly SnapshotName[];
  readonly phone_numbers: readonly SnapshotNumber[];
  readonly brands: readonly SnapshotName[];
  readonly registrations: readonly SnapshotRegistration[];
  /** Tracking domains by id (the API names them only by id on projects). */
  readonly tracking_domains: readonly string[];
  /** The standard fields and every field a merge tag of the organization's projects names. */
  readonly merge_fields: readonly string[];
  readonly projects: readonly SnapshotProject[];
}

export interface Snapshot {
  readonly format_version: typeof SNAPSHOT_FORMAT_VERSION;
  /** The command that last wrote it, and the API's time of that read. */
  readonly written_by: "import" | "plan";
  readonly read_at: string;
  readonly organizations: readonly SnapshotOrganization[];
}

/** What a run read: the bulk lists, and whichever projects and verifications it read by id. */
export interface SnapshotSource {
  readonly organizations: readonly Organization[];
  readonly tenDlcCampaigns: readonly TenDlcCampaign[];
  readonly contactLists: readonly ContactList[];
  readonly phoneNumbers: readonly PhoneNumber[];
  readonly projects: readonly Project[];
  readonly tollFreeVerifications: readonly TollFreeVerification[];
}

const byName = <T extends { readonly name: string; readonly id: string }>(items: Iterable<T>): T[] =>
  [...new Map([...items].map((i) => [i.id, i])).values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );

/** The snapshot of what was read. */
export function snapshotOf(
  source: SnapshotSource,
  writtenBy: Snapshot["written_by"],
  readAt: Date,
): Snapshot {
  const organizations = source.organizations.map((org): SnapshotOrganization => {
    const mine = <T extends { readonly org_id: string }>(items: readonly T[]) =>
      items.filter((i) => i.org_id === org.id);
    const lists = mine(source.contactLists);
    const numbers = mine(source.phoneNumbers);
    const campaigns = mine(source.tenDlcCampaigns);
    const projects = source.projects.filter((p) => p.organization_id === org.id);
    const brands: SnapshotName[] = [];
    for (const x of [...campaigns, ...lists, ...numbers])
      if (x.brand_id !== null && x.brand_id !== "" && x.brand_name !== null)
        brands.push({ id: x.brand_id, name: x.brand_name });
    const registrations: SnapshotRegistration[] = [
      ...campaigns.map((c) => ({
        id: c.id,
        name: c.name,
        kind: "10dlc" as const,
        status: c.campaign_status,
      })),
      ...mine(source.tollFreeVerifications).map((t) => ({
        id: t.id,
        name: t.name,
        kind: "toll-free" as const,
        status: t.status,
      })),
      ...numbers.flatMap((n) =>
        n.toll_free_verification_id !== null && n.toll_free_registration_name !== null
          ? [
              {
                id: n.toll_free_verification_id,
                name: n.toll_free_registration_name,
                kind: "toll-free" as const,
                status: n.tf_verification_status,
              },
            ]
          : [],
      ),
    ];
    const fields = new Set<string>(STANDARD_FIELDS);
    for (const p of projects)
      for (const tag of tagsOf(parseMergeTags(p.message_text ?? ""))) fields.add(tag.name);
    return {
      id: org.id,
      name: org.display_name,
      contact_lists: byName(lists.map((l) => ({ id: l.id, name: l.name }))),
      phone_numbers: [...new Map(numbers.map((n) => [n.id, n])).values()]
        .map((n) => ({
          id: n.id,
          number: n.number,
          nickname: n.nickname,
          channel: n.channel,
          status: n.status,
        }))
        .sort((a, b) => a.number.localeCompare(b.number)),
      brands: byName(brands),
      registrations: byName(registrations),
      tracking_domains: [
        ...new Set(projects.flatMap((p) => (p.link_tracking_domain_id ? [p.link_tracking_domain_id] : []))),
      ].sort(),
      merge_fields: [...fields],
      projects: byName(
        projects.map((p) => ({
          id: p.project_id,
          name: p.name,
          total_recipients: p.total_recipients,
          estimated_cost_cents: p.estimated_cost_cents,
        })),
      ),
    };
  });
  return {
    format_version: SNAPSHOT_FORMAT_VERSION,
    written_by: writtenBy,
    read_at: readAt.toISOString(),
    organizations: organizations.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  };
}

/** `next` over `previous`: organizations `next` read replace theirs, the others are kept. */
export function mergeSnapshots(previous: Snapshot | undefined, next: Snapshot): Snapshot {
  if (previous === undefined) return next;
  const read = new Set(next.organizations.map((o) => o.id));
  return {
    ...next,
    organizations: [...next.organizations, ...previous.organizations.filter((o) => !read.has(o.id))].sort(
      (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    ),
  };
}

/** The organization a file names (by id or name), or the only one the snapshot has. */
export function organizationIn(
  snapshot: Snapshot,
  named: string | undefined,
): SnapshotOrganization | undefined {
  if (named === undefined) return snapshot.organizations.length === 1 ? snapshot.organizations[0] : undefined;
  return snapshot.organizations.find((o) => o.id === named || o.name === named);
}
