/**
 * Live state as the planner sees it: what a refresh read from the API, already fetched. The planner
 * is a pure function of (campaign, live state, clock); only `refresh` (handed an API reader) does IO.
 */

import type {
  ContactList,
  MediaFile,
  Organization,
  PhoneNumber,
  Project,
  TenDlcCampaign,
  TollFreeVerification,
} from "../contract/resources.js";
import type { ArmCounters } from "../experiments/verdict.js";

/**
 * The outcome of reading one record by id. `not-found` is a 404; `forbidden` a 403 (outside the
 * key's organization tree); `error` anything else that left the record unknown (message has no key).
 */
export type LiveRead<T> =
  | { readonly kind: "found"; readonly value: T }
  | { readonly kind: "not-found" }
  | { readonly kind: "forbidden"; readonly message: string }
  | { readonly kind: "error"; readonly code: string; readonly message: string };

/**
 * Everything a plan needs from the API. Invariants: the list members are complete for the key's
 * scope (one bulk read each); the maps hold an entry for every id the campaign needs (projects by
 * `ProjectSpec.id`, media and toll-free verifications by every id referenced or attached live).
 */
export interface LiveState {
  readonly organizations: readonly Organization[];
  readonly tenDlcCampaigns: readonly TenDlcCampaign[];
  readonly contactLists: readonly ContactList[];
  readonly phoneNumbers: readonly PhoneNumber[];
  readonly projects: ReadonlyMap<string, LiveRead<Project>>;
  readonly media: ReadonlyMap<string, LiveRead<MediaFile>>;
  readonly tollFreeVerifications: ReadonlyMap<string, LiveRead<TollFreeVerification>>;
  /**
   * With keys per organization (issue 26): by project id, the organization of the key its requests
   * go with (that key's root organization, as its own `GET /organizations` says). A project not
   * listed goes with the plan's key (`organization_id` of the plan).
   */
  readonly keyOrganizations?: ReadonlyMap<string, string>;
  /**
   * By project id, the counters of its statistics row (`GET /projects/stats`), for the experiments'
   * verdicts (the holdout item, src/plan/experiment-hold.ts); a project no window listed, or a plan
   * whose statistics could not be read, has none (its arm counts nothing).
   */
  readonly statistics?: ReadonlyMap<string, ArmCounters>;
}
