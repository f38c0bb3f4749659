/**
 * What a reviewer needs to know about one project's send besides its actions: who it reaches (the
 * live project's organization and lists, by name), when (the schedule in the recipients' zone and
 * in UTC), and whether it sends to its lists at all once the plan is applied. Pure; for display
 * only, never the basis of an action.
 */
import { DateTime } from "luxon";
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import { boundedMemo } from "../text/bounded-memo.js";
import type { CatalogEntry } from "./catalog.js";
import type { Catalogs } from "./catalogs.js";
import { AT_NOW } from "./requests.js";
import type { LiveBasis, NamedRecord, PlanAudience, PlanSchedule } from "./types.js";

function named(catalog: readonly CatalogEntry[], id: string): NamedRecord {
  return { id, name: catalog.find((e) => e.id === id)?.display ?? null };
}

/** The live project's organization and lists, named from the catalogs (null name: not visible). */
export function audienceOf(project: Project, catalogs: Catalogs): PlanAudience {
  return {
    organization: named(catalogs.organization, project.organization_id),
    contact_lists: project.contact_list_ids.map((id) => named(catalogs.contact_lists, id)),
    suppression_lists: project.suppression_list_ids.map((id) => named(catalogs.suppression_lists, id)),
  };
}

/**
 * The file's schedule when the file asks for the project scheduled and has one (but for `at: now`
 * once the live project holds a time: that time is when it sends), else the live project's when
 * it has one, else null.
 */
export function scheduleOf(spec: ProjectSpec, project: Project | null): PlanSchedule | null {
  const liveAt = project?.scheduled_at ?? null;
  const given = spec.state === "scheduled" ? spec.schedule : undefined;
  if (given !== undefined && (given.at !== AT_NOW || liveAt === null))
    return zoned("file", given.at, given.timezone);
  if (liveAt === null) return null;
  return zoned("live", liveAt, project?.scheduled_timezone ?? null);
}

function zoned(source: PlanSchedule["source"], at: string, timezone: string | null): PlanSchedule {
  return { source, at, timezone, ...instantIn(at, timezone) };
}

/**
 * By `timezone` then `at`: the instant in that zone and in UTC. A plan of many projects sends most
 * of them at a few instants, and reading a time in a zone is luxon's slowest work; kept by content
 * (the answer is a pure function of the two strings), so safe to share; the least recently used
 * dropped beyond 10,000 (src/text/bounded-memo.ts).
 */
const ZONED = boundedMemo<Pick<PlanSchedule, "local" | "utc">>({ max: 10_000 });

function instantIn(at: string, timezone: string | null): Pick<PlanSchedule, "local" | "utc"> {
  return ZONED.get(`${timezone ?? ""} ${at}`, () => zonedNew(at, timezone));
}

function zonedNew(at: string, timezone: string | null): Pick<PlanSchedule, "local" | "utc"> {
  const instant = at === AT_NOW ? undefined : DateTime.fromISO(at, { setZone: true });
  let found: Pick<PlanSchedule, "local" | "utc">;
  if (instant === undefined || !instant.isValid) found = { local: null, utc: null };
  else {
    const local = timezone === null ? undefined : instant.setZone(timezone);
    found = {
      local: local?.isValid === true ? local.toISO({ suppressMilliseconds: true }) : null,
      utc: instant.toUTC().toISO({ suppressMilliseconds: true }),
    };
  }
  return found;
}

/**
 * Whether the project sends to its lists once the plan is applied: the file asks for it scheduled
 * and it has not completed (an unread project counts: the file asks for it), or it is scheduled or
 * active live and the file does not ask for it paused.
 */
export function sendsToLists(desired: ProjectSpec["state"], live: LiveBasis | null): boolean {
  if (desired === "scheduled") return live?.status !== "completed";
  if (live === null || desired === "paused") return false;
  return live.status === "scheduled" || live.status === "active";
}
