/**
 * Time zones for the schedule checks without `Intl` where a table answers (issue 36): a process's
 * first `Intl.DateTimeFormat` costs about 13 ms of ICU set-up, as much as the rest of a small
 * file's checks. The table (generated/zone-offsets.ts, written at build time by
 * scripts/gen-zone-offsets.mjs) holds ICU's own offsets of the US zones from 2000 to 2070, and is
 * used only in the runtime that wrote it (the same Node, V8, ICU and tz data): there its answers
 * are luxon's and ICU's by construction. Any other zone name (an alias, another case, an unknown
 * name), instant or runtime asks luxon as before. Pure (the runtime's versions are a constant of
 * it, as `Intl` is).
 */
import {
  DateTime,
  FixedOffsetZone,
  IANAZone,
  Zone,
  type ZoneOffsetFormat,
  type ZoneOffsetOptions,
} from "luxon";
import { ABBREVIATIONS, CHANGES, FROM_MS, RUNTIME, TO_MS } from "./generated/zone-offsets.js";

/** Whether this runtime is the one the table was read from (its `process.versions`). */
export function tableInForce(versions: Readonly<Record<string, string | undefined>> | undefined): boolean {
  return versions !== undefined && Object.entries(RUNTIME).every(([key, value]) => versions[key] === value);
}

const IN_FORCE = tableInForce(globalThis.process?.versions);

/**
 * The table's offset (minutes) of `zone` at `ms`, or undefined when the table does not answer
 * (another runtime, a zone not in it, an instant outside 2000-2070).
 */
export function tableOffset(zone: string, ms: number, inForce = IN_FORCE): number | undefined {
  if (!inForce || !(ms >= FROM_MS && ms < TO_MS) || !Object.hasOwn(CHANGES, zone)) return undefined;
  const changes = CHANGES[zone] as readonly number[];
  // [offset, change, offset, change, offset...]: the last change at or before `ms`, by bisection.
  let lo = 0;
  let hi = (changes.length - 1) / 2;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((changes[2 * mid - 1] as number) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return changes[2 * lo] as number;
}

/** The offset of `zone` at `ms` in minutes, as luxon reads it (NaN for a zone it does not know). */
export function zoneOffset(zone: string, ms: number): number {
  return tableOffset(zone, ms) ?? DateTime.fromMillis(ms, { zone }).offset;
}

/**
 * The abbreviation of `zone` at `ms` (`EST`, `GMT+10`) as luxon formats `ZZZZ` in English: the
 * table's where it answers (no `Intl`: a cold forecast's only use of ICU was naming its zones), else
 * luxon's own (ICU's short zone name).
 */
export function zoneAbbreviation(zone: string, ms: number): string {
  const offset = tableOffset(zone, ms);
  const named = offset === undefined ? undefined : ABBREVIATIONS[zone]?.[String(offset)];
  return named ?? DateTime.fromMillis(ms, { zone }).setLocale("en-US").toFormat("ZZZZ");
}

/** Whether `zone` is an IANA zone this runtime knows (luxon's `IANAZone.isValidZone`). */
export function isKnownZone(zone: string): boolean {
  return (IN_FORCE && Object.hasOwn(CHANGES, zone)) || IANAZone.isValidZone(zone);
}

/**
 * A luxon zone that reads its offsets from the table, and from luxon's own IANA zone of the same
 * name (made on first need) outside it. It is luxon's `IANAZone` in all but where the offset comes
 * from: the same type, name, equality and formatting.
 */
class TableZone extends Zone<boolean> {
  #iana: IANAZone | undefined;
  constructor(readonly zoneName: string) {
    super();
  }
  override get type(): string {
    return "iana";
  }
  override get name(): string {
    return this.zoneName;
  }
  override get isUniversal(): boolean {
    return false;
  }
  override get isValid(): boolean {
    return true;
  }
  override offset(ts: number): number {
    return tableOffset(this.zoneName, ts) ?? this.iana().offset(ts);
  }
  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    // luxon's own formatting of an offset (FixedOffsetZone's and IANAZone's are the same function).
    return FixedOffsetZone.instance(this.offset(ts)).formatOffset(ts, format);
  }
  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    return this.iana().offsetName(ts, options);
  }
  override equals(other: Zone<boolean>): boolean {
    return other.type === "iana" && other.name === this.zoneName;
  }
  private iana(): IANAZone {
    this.#iana ??= IANAZone.create(this.zoneName);
    return this.#iana;
  }
}

const TABLE_ZONES = new Map<string, Zone<boolean>>();

/**
 * The zone to hand luxon for `name`: the table's when it answers for that name in this runtime,
 * else the name itself (luxon makes its IANA zone, or an invalid one, as before).
 */
export function zoneNamed(name: string): Zone<boolean> | string {
  if (!IN_FORCE || !Object.hasOwn(CHANGES, name)) return name;
  let zone = TABLE_ZONES.get(name);
  if (zone === undefined) {
    zone = new TableZone(name);
    TABLE_ZONES.set(name, zone);
  }
  return zone;
}

/**
 * luxon's options for a DateTime whose text is only ever formatted with fixed tokens (`toFormat`
 * and `toISO` read English digits whatever the locale): naming the locale spares luxon asking ICU
 * for the system's (`new Intl.DateTimeFormat()`), and changes no output.
 */
export const FIXED_LOCALE = { locale: "en-US" } as const;
