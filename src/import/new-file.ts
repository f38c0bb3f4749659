/**
 * A new campaign file for imported projects: header, `version`, `organization`, the custom `fields`
 * their messages use, `defaults` for values most of them share, then the projects. Pure.
 *
 * Grouping: a key goes to `defaults` when every project of the file describes it and one value
 * (as written) is shared by at least two projects and by more than half of them; projects with
 * another value keep their own (a project's own value of a key wins over the default).
 */
import type { Catalogs } from "../plan/catalogs.js";
import { newProjectOut, type Placement } from "./merge-into-document.js";
import type { Wanted } from "./project-to-yaml.js";
import { renderDocument } from "./render.js";
import { GROUPABLE_KEYS, type YamlOut } from "./yaml-out.js";

/**
 * The `$schema` a new file names when its writer gives none: the schema where `campaignctl init`
 * puts it for a file under `campaigns/` (a path, resolved beside the file; never a URL). The CLI
 * always gives the one that resolves on the user's machine (cli/output/schema-reference.ts).
 */
export const CAMPAIGN_SCHEMA_DEFAULT = "../schemas/campaign.schema.json";

/** The first comment lines of a file import creates; `schema` is the modeline's `$schema`. */
function newFileHeader(schema: string): readonly string[] {
  return [
    `yaml-language-server: $schema=${schema}`,
    "",
    "Written by `campaignctl import` from the live projects. Edit freely: a re-import changes only",
    "what differs from the live projects, and keeps comments, key order and formatting.",
  ];
}

const keyOfOut = (out: YamlOut): string => JSON.stringify(out);

export function renderNewFile(
  placements: readonly Placement[],
  organization: Wanted,
  fields: readonly string[],
  catalogs: Catalogs,
  schema: string = CAMPAIGN_SCHEMA_DEFAULT,
): string {
  const defaults: [string, YamlOut][] = [];
  const defaultValues: Record<string, unknown> = {};
  if (placements.length >= 2)
    for (const key of GROUPABLE_KEYS) {
      const values = placements.map((p) => p.project.wanted.get(key));
      if (!values.every((w) => w?.kind === "set")) continue;
      const counts = new Map<string, { out: YamlOut; semantic: unknown; n: number }>();
      for (const w of values) {
        if (w?.kind !== "set") continue;
        const k = keyOfOut(w.out);
        const seen = counts.get(k);
        if (seen === undefined) counts.set(k, { out: w.out, semantic: w.semantic, n: 1 });
        else seen.n++;
      }
      const best = [...counts.entries()].sort(([ka, a], [kb, b]) => b.n - a.n || (ka < kb ? -1 : 1))[0];
      if (best === undefined) continue;
      const [, { out, n }] = best;
      if (n >= 2 && n * 2 > placements.length) {
        defaults.push([key, out]);
        defaultValues[key] = plainOf(out);
      }
    }
  const pairs: [string, YamlOut][] = [["version", { kind: "scalar", value: 1 }]];
  if (organization.kind === "set") pairs.push(["organization", organization.out]);
  if (fields.length > 0)
    pairs.push(["fields", { kind: "seq", items: fields.map((f) => ({ kind: "scalar", value: f })) }]);
  if (defaults.length > 0) pairs.push(["defaults", { kind: "map", pairs: defaults }]);
  pairs.push([
    "projects",
    {
      kind: "map",
      pairs: placements.map((p) => [p.address, newProjectOut(p.project, defaultValues, catalogs)] as const),
    },
  ]);
  return renderDocument(newFileHeader(schema), pairs);
}

/** A YamlOut as the plain value a file reading it gets. */
function plainOf(out: YamlOut): unknown {
  switch (out.kind) {
    case "scalar":
      return out.value;
    case "seq":
      return out.items.map(plainOf);
    case "map":
      return Object.fromEntries(out.pairs.map(([k, v]) => [k, plainOf(v)]));
  }
}
