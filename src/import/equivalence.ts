/**
 * Whether what a file says for a key (as read, after `defaults`) already means what import wants,
 * judged as the plan judges it: references by the id they resolve to (lists as sets), schedule
 * times as instants, an absent `type` as `broadcast`, a tracking domain written as a host name as
 * unchecked. Equivalent values are left as written, so a re-import changes only what differs. Pure.
 */

import type { Catalogs } from "../plan/catalogs.js";
import { isDomainName } from "../plan/link-tracking.js";
import { AT_NOW, instantOf } from "../plan/requests.js";
import { resolvedId } from "./names.js";
import type { Semantic, Wanted } from "./project-to-yaml.js";
import type { ManagedKey } from "./yaml-out.js";

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export function equivalent(
  key: ManagedKey | "organization",
  written: unknown,
  wanted: Wanted,
  catalogs: Catalogs,
): boolean {
  switch (wanted.kind) {
    case "keep":
      return true;
    case "absent":
      return written === undefined;
    case "set":
      return sameMeaning(key, written, wanted.semantic, catalogs);
  }
}

function sameMeaning(
  key: ManagedKey | "organization",
  written: unknown,
  semantic: Semantic,
  catalogs: Catalogs,
): boolean {
  switch (semantic.kind) {
    case "text":
      if (key === "type" && written === undefined) return semantic.value === "broadcast";
      return written === semantic.value;
    case "bool":
      return written === semantic.value;
    case "ref":
      return typeof written === "string" && resolvedId(catalogs, semantic.ref, written) === semantic.id;
    case "refs": {
      if (!Array.isArray(written)) return false;
      const ids = written.map((w) =>
        typeof w === "string" ? resolvedId(catalogs, semantic.ref, w) : undefined,
      );
      if (ids.some((id) => id === undefined)) return false;
      const have = [...new Set(ids)].sort();
      const want = [...new Set(semantic.ids)].sort();
      return have.length === want.length && have.every((id, i) => id === want[i]);
    }
    case "link": {
      if (!isRecord(written)) return false;
      const want = semantic.value;
      const domain = written.domain;
      const domainSame =
        domain === want.domain ||
        (typeof domain === "string" && isDomainName(domain) && want.domain !== undefined);
      return (
        written.destination_url === want.destination_url &&
        domainSame &&
        written.param_field === want.param_field &&
        written.fallback_url === want.fallback_url
      );
    }
    case "schedule": {
      if (!isRecord(written)) return false;
      const want = semantic.value;
      if (written.timezone !== want.timezone) return false;
      const bypass = written.daily_cap_bypass ?? false;
      if (want.dailyCapBypass !== undefined && bypass !== want.dailyCapBypass) return false;
      if (typeof written.at !== "string") return false;
      if (want.at === AT_NOW) return written.at === AT_NOW;
      const at = instantOf(written.at);
      return at !== undefined && at === instantOf(want.at);
    }
    case "pause":
      return isRecord(written) && written.reason === semantic.reason;
  }
}
