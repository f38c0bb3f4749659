/**
 * Reads back the file `import --template` is about to write and checks that every instance,
 * expanded as SPEC-26 says (the template's keys, then the instance's; `message` the instance's
 * variant; `schedule.local` read in the instance's `timezone`), means its live project exactly,
 * judged as the plan judges it (`equivalence.ts`) with names resolved in the project's own
 * organization. A failure is a bug in import, reported as an error so nothing wrong is written;
 * but a live project whose text holds an API key is `import.live-key` (verify.ts). Pure.
 */
import { parse } from "yaml";
import { localToAt } from "../campaign/template-schedule.js";
import { SCHEDULE_TIMEZONES, type ScheduleTimezone } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Catalogs } from "../plan/catalogs.js";
import { own as ownName } from "../text/names.js";
import { equivalent } from "./equivalence.js";
import { resolvedId } from "./names.js";
import type { Member } from "./template-member.js";
import { liveKeyErrors } from "./verify.js";
import { MANAGED_KEYS } from "./yaml-out.js";

type Raw = Record<string, unknown>;
const isZone = (v: unknown): v is ScheduleTimezone => (SCHEDULE_TIMEZONES as readonly unknown[]).includes(v);
const isRecord = (v: unknown): v is Raw => v !== null && typeof v === "object" && !Array.isArray(v);

export function verifyTemplateFile(
  text: string,
  template: string,
  members: readonly Member[],
  allCatalogs: Catalogs,
): Diagnostic[] {
  const bug = (message: string): Diagnostic => ({
    severity: "error",
    code: "import.verify-failed",
    message,
    hint: "this is a bug in campaignctl import; nothing was written",
  });
  const keyed = members.flatMap((m) => liveKeyErrors(m.imported));
  if (keyed.length > 0) return keyed;
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return [bug(`the template file does not parse: ${String(error)}`)];
  }
  const templates = isRecord(doc) ? doc.templates : undefined;
  const raw = isRecord(templates) ? ownName(templates, template) : undefined;
  if (!isRecord(raw) || !isRecord(raw.instances) || !isRecord(raw.message))
    return [bug(`the file has no template ${template} with message and instances`)];
  const { instances, message, ...shared } = raw;
  const out: Diagnostic[] = [];
  if (Object.keys(instances).length !== members.length)
    out.push(
      bug(`${template} has ${Object.keys(instances).length} instances for ${members.length} projects`),
    );
  for (const m of members) {
    const own = ownName(instances, m.address);
    if (!isRecord(own)) {
      out.push(bug(`${template}: instance ${m.address} is missing`));
      continue;
    }
    const { organization, id, language, timezone, ...overrides } = own;
    const merged: Raw = { ...shared, ...overrides, message: ownName(message, String(language)) };
    const wrong: string[] = [];
    if (id !== m.project.project_id) wrong.push("id");
    if (language !== m.language) wrong.push("language");
    if (
      typeof organization !== "string" ||
      resolvedId(allCatalogs, "organization", organization) !== m.project.organization_id
    )
      wrong.push("organization");
    for (const key of MANAGED_KEYS) {
      const wanted = m.imported.wanted.get(key) ?? { kind: "keep" as const };
      let written = merged[key];
      if (key === "schedule" && isRecord(written)) {
        const zone = timezone ?? shared.timezone;
        const read =
          typeof written.local === "string" && isZone(zone) ? localToAt(written.local, zone) : undefined;
        const at = read?.kind === "at" ? read.at : undefined;
        const { local: _local, ...rest } = written;
        written = { ...rest, at, timezone: zone };
      }
      if (!equivalent(key, written, wanted, m.catalogs)) wrong.push(key);
    }
    if (wrong.length > 0)
      out.push(
        bug(
          `${template}: instance ${m.address} would not describe the live project ${m.project.project_id} exactly (${wrong.join(", ")})`,
        ),
      );
  }
  return out;
}
