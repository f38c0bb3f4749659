/**
 * The shapes of a campaign file exactly as written (snake_case keys), as `campaign.schema.json`
 * describes them. Invariant: a value is typed with these only after the schema accepted it.
 */
import type { ScheduleTimezone } from "../contract/limits.js";
import type { ChannelSpec, DesiredState, ProjectType } from "./model.js";

export interface RawTestContact {
  readonly phone: string;
  readonly merge_values?: Readonly<Record<string, string>>;
}

export interface RawLinkTracking {
  readonly destination_url: string;
  readonly domain?: string;
  readonly param_field?: string;
  readonly fallback_url?: string;
}

/** Every key a project (or the file's `defaults`) may carry. */
export interface RawProjectKeys {
  readonly id?: string;
  readonly name?: string;
  readonly type?: ProjectType;
  readonly channel?: ChannelSpec;
  readonly brand?: string;
  readonly campaign?: string;
  readonly toll_free_verification?: string;
  readonly phone_numbers?: readonly string[];
  readonly message?: string;
  readonly media?: readonly string[];
  readonly contact_lists?: readonly string[];
  readonly suppression_lists?: readonly string[];
  readonly link_tracking?: RawLinkTracking;
  readonly opt_out_footer?: boolean;
  readonly state?: DesiredState;
  readonly test?: { readonly contacts: readonly RawTestContact[] };
  readonly schedule?: {
    readonly at: string;
    readonly timezone: ScheduleTimezone;
    readonly daily_cap_bypass?: boolean;
  };
  readonly deadline?: string;
  readonly pause?: { readonly reason?: string };
  readonly guard?: {
    readonly max_failure_rate?: number;
    readonly max_opt_out_rate?: number;
    readonly min_sample?: number;
  };
  readonly after?: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
}

/** The file's `capacity:` as written. */
export interface RawCapacity {
  readonly brands?: Readonly<Record<string, { readonly daily_cap: number | "none" }>>;
  readonly throughput?: Readonly<Partial<Record<ChannelSpec, number>>>;
}

/** A whole campaign file document. */
export interface RawCampaignDocument {
  readonly version: 1;
  readonly organization?: string;
  readonly merge_defaults?: Readonly<Record<string, string>>;
  readonly fields?: readonly string[];
  readonly capacity?: RawCapacity;
  readonly defaults?: RawProjectKeys;
  readonly projects?: Readonly<Record<string, RawProjectKeys>>;
  readonly templates?: Readonly<Record<string, RawTemplate>>;
}

/** A template's or an instance's `schedule:`: a local date-time without offset (`local`). */
export interface RawLocalSchedule {
  readonly local: string;
  readonly timezone?: ScheduleTimezone;
  readonly daily_cap_bypass?: boolean;
}

/** The project keys a template and an instance share: every key but id, message and schedule. */
export type RawSharedKeys = Omit<RawProjectKeys, "id" | "message" | "schedule">;

/** One instance of a template as written (src/campaign/template-expand.ts). */
export interface RawInstance extends RawSharedKeys {
  readonly organization: string;
  readonly id: string;
  readonly language: string;
  readonly timezone?: ScheduleTimezone;
  readonly merge_defaults?: Readonly<Record<string, string>>;
  readonly schedule?: RawLocalSchedule;
}

/** A template as written: its message per language and its instances. */
export interface RawTemplate extends RawSharedKeys {
  readonly message: Readonly<Record<string, string>>;
  readonly timezone?: ScheduleTimezone;
  readonly merge_defaults?: Readonly<Record<string, string>>;
  readonly schedule?: RawLocalSchedule;
  readonly instances: Readonly<Record<string, RawInstance>>;
}
