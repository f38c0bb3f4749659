/**
 * `import --template NAME`: live projects of several organizations that share a text (one text per
 * language) in, ONE campaign file out with one template (its `message` variants) and one instance
 * per project (SPEC-26 format). Pure: records in, YAML text out.
 *
 * - Each project's language is told from its text (`template-language.ts`) unless given.
 * - References are written by name as they resolve in the project's OWN organization
 *   (`template-catalogs.ts`), so "Likely Voters" in every organization is one template value.
 * - A key goes to the template when every instance has it and one written value is shared by at
 *   least two instances and by more than half of them (by all, for one instance); an instance with
 *   another value writes its own (an override). A schedule is written as a local time read in the
 *   `timezone` (the template's when the instances share one, else each instance's).
 * - The text is read back and every instance, expanded (template, then instance), must mean its live
 *   project exactly (`template-verify.ts`); a difference is a bug and nothing is written.
 */
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Catalogs } from "../plan/catalogs.js";
import { ADDRESS_PATTERN, deriveAddresses } from "./addresses.js";
import { equivalent } from "./equivalence.js";
import type { FileResult, ProjectResult } from "./import-files.js";
import { writtenRef } from "./names.js";
import { type ImportedProject, importProject } from "./project-to-yaml.js";
import { renderPair } from "./render.js";
import { organizationCatalogs } from "./template-catalogs.js";
import { detectLanguage } from "./template-language.js";
import type { Member } from "./template-member.js";
import { localScheduleOf, repeatedLocalTime } from "./template-schedule.js";
import { verifyTemplateFile } from "./template-verify.js";
import { MANAGED_KEYS, type ManagedKey, scalar, type YamlOut } from "./yaml-out.js";

/** A language tag as a template's `message` keys are written (`en`, `es`, `pt-BR`). */
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export interface TemplateImportInput {
  /** The template's name (the address pattern). */
  readonly template: string;
  /** The selected live projects, each read by id. */
  readonly projects: readonly Project[];
  /** Everything the key sees, each record with its organizations (names resolve per organization). */
  readonly catalogs: Catalogs;
  /** Languages the user gave (`--language ID=TAG`), by project id. */
  readonly languages: ReadonlyMap<string, string>;
  /** The file to write, as reported. */
  readonly path: string;
  /** Its current text, when it exists. */
  readonly existing?: string;
  /** Addresses (and template names) already taken by the other files loaded beside it. */
  readonly taken: ReadonlySet<string>;
  /** The modeline's `$schema`. */
  readonly schema: string;
}

/** One instance as written, with what it came from. */
export interface InstanceResult extends ProjectResult {
  readonly language: string;
}

export type TemplateImportOutput =
  | { readonly ok: true; readonly file: FileResult; readonly instances: readonly InstanceResult[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Keys the template and its instances share by the grouping rule (message, schedule and pause aside). */
const GROUPED_KEYS: readonly ManagedKey[] = MANAGED_KEYS.filter(
  (k) => k !== "message" && k !== "schedule" && k !== "pause",
);

const HEADER = (schema: string, template: string) => [
  `yaml-language-server: $schema=${schema}`,
  "",
  `Written by \`campaignctl import --template ${template}\` from the live projects: one template, one`,
  "instance per project. Names resolve in each instance's own organization.",
];

export function importTemplate(input: TemplateImportInput): TemplateImportOutput {
  const errors: Diagnostic[] = [];
  if (!ADDRESS_PATTERN.test(input.template))
    errors.push({
      severity: "error",
      code: "import.template-invalid-name",
      message: `--template ${JSON.stringify(input.template)} is not a valid template name`,
      hint: "use lower-case letters, digits and dashes, starting with a letter or digit (e.g. gotv-reminder)",
    });
  if (input.projects.length === 0)
    errors.push({
      severity: "error",
      code: "import.no-selection",
      message: "no project was selected for the template",
      hint: "give project ids, or --all, --status STATUS or --organization ORG",
    });
  const strays = [...input.languages.keys()].filter((id) => !input.projects.some((p) => p.project_id === id));
  if (strays.length > 0)
    errors.push({
      severity: "error",
      code: "import.template-invalid-name",
      message: `--language names ${strays.length === 1 ? "a project" : "projects"} not selected: ${strays.join(", ")}`,
      hint: "check the id, or add the project to the selection",
    });
  const orgName = (id: string) => input.catalogs.organization.find((o) => o.id === id)?.display ?? id;
  const languages: string[] = [];
  const undecided: Project[] = [];
  for (const p of input.projects) {
    const language = input.languages.get(p.project_id) ?? detectLanguage(p.message_text);
    if (language === undefined) undecided.push(p);
    languages.push(language ?? "");
  }
  if (undecided.length > 0)
    errors.push({
      severity: "error",
      code: "import.template-language-unknown",
      message: `the language of ${undecided.map((p) => `${p.name} (${p.project_id}, ${orgName(p.organization_id)})`).join(", ")} cannot be told from ${undecided.length === 1 ? "its" : "their"} text`,
      hint: `name it: --language ${undecided[0]?.project_id}=en (or es, ...)`,
    });
  if (errors.length > 0) return { ok: false, diagnostics: errors };

  // One text per language.
  const variants = new Map<string, Map<string, Project[]>>();
  input.projects.forEach((p, i) => {
    const language = languages[i] as string;
    const texts = variants.get(language) ?? new Map<string, Project[]>();
    texts.set(p.message_text, [...(texts.get(p.message_text) ?? []), p]);
    variants.set(language, texts);
  });
  for (const [language, texts] of variants) {
    if (texts.size < 2) continue;
    const groups = [...texts.entries()].sort(([, a], [, b]) => b.length - a.length);
    errors.push({
      severity: "error",
      code: "import.template-text-differs",
      message: `the ${language} texts differ: ${groups
        .map(
          ([text, ps]) =>
            `${ps.length} project${ps.length === 1 ? "" : "s"} (${ps.map((p) => `${p.name} in ${orgName(p.organization_id)}`).join(", ")}) ${ps.length === 1 ? "has" : "have"} ${JSON.stringify(preview(text))}`,
        )
        .join("; ")}`,
      hint: "a template has one text per language: import only projects that share it, or fix the text in the dashboard first",
    });
  }
  if (errors.length > 0) return { ok: false, diagnostics: errors };

  const addresses = deriveAddresses(
    input.projects.map((p, i) => ({
      id: p.project_id,
      name: `${orgName(p.organization_id)} ${languages[i]}`,
    })),
    new Set([...input.taken, input.template]),
    "instance",
  );
  const members: Member[] = input.projects.map((project, i) => {
    const catalogs = organizationCatalogs(input.catalogs, project.organization_id);
    const org = writtenRef(input.catalogs, "organization", project.organization_id);
    return {
      project,
      imported: importProject(project, catalogs),
      language: languages[i] as string,
      catalogs,
      address: addresses.get(project.project_id) ?? project.project_id,
      organization: org.value,
    };
  });

  const repeated = members.flatMap((m) => {
    const time = repeatedLocalTime(m.imported);
    return time === undefined ? [] : [repeatedDiagnostic(m, time)];
  });
  if (repeated.length > 0) return { ok: false, diagnostics: repeated };

  const text = renderTemplateFile(input, members, variants);
  const verified = verifyTemplateFile(text, input.template, members, input.catalogs);
  if (verified.length > 0) return { ok: false, diagnostics: verified };
  if (input.existing !== undefined && input.existing !== text)
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "import.template-file-exists",
          message: `${input.path} exists and differs from the template import would write`,
          hint: "import --template writes a new file only: choose another --out, or remove the file and import again",
        },
      ],
    };
  const changed = input.existing === undefined;
  return {
    ok: true,
    file: { path: input.path, before: input.existing, text, changed },
    instances: members.map((m) => ({
      id: m.project.project_id,
      name: m.project.name,
      address: m.address,
      file: input.path,
      organizationId: m.project.organization_id,
      status: m.project.status,
      state: stateOf(m.imported),
      change: changed ? "added" : "unchanged",
      language: m.language,
    })),
  };
}

function preview(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

function stateOf(project: ImportedProject): string {
  const wanted = project.wanted.get("state");
  return wanted?.kind === "set" && wanted.semantic.kind === "text" ? wanted.semantic.value : "draft";
}

const keyOfOut = (out: YamlOut): string => JSON.stringify(stripComments(out));

/** A written value without its comments (two `by id` comments do not make values differ). */
function stripComments(out: YamlOut): YamlOut {
  switch (out.kind) {
    case "scalar":
      return scalar(out.value);
    case "seq":
      return { kind: "seq", items: out.items.map(stripComments) };
    case "map":
      return { kind: "map", pairs: out.pairs.map(([k, v]) => [k, stripComments(v)] as const) };
  }
}

/**
 * The value the template holds for a key, or undefined: every member has one, and one written value
 * is shared by at least two members and by more than half (by all, for a single member). A written
 * value holding a `by id` comment is per organization by nature and never shared.
 */
export function sharedValue(values: readonly (YamlOut | undefined)[]): YamlOut | undefined {
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  const counts = new Map<string, { out: YamlOut; n: number }>();
  for (const v of values as YamlOut[]) {
    const k = keyOfOut(v);
    const seen = counts.get(k);
    if (seen === undefined) counts.set(k, { out: v, n: 1 });
    else seen.n++;
  }
  const best = [...counts.entries()].sort(([ka, a], [kb, b]) => b.n - a.n || (ka < kb ? -1 : 1))[0];
  if (best === undefined) return undefined;
  const [, { out, n }] = best;
  const enough = values.length === 1 || (n >= 2 && n * 2 > values.length);
  return enough && !hasComment(out) ? out : undefined;
}

function hasComment(out: YamlOut): boolean {
  switch (out.kind) {
    case "scalar":
      return out.comment !== undefined;
    case "seq":
      return out.items.some(hasComment);
    case "map":
      return out.pairs.some(([, v]) => hasComment(v));
  }
}

/**
 * What a member writes for `key`: nothing when the key is not set, or when writing nothing means
 * the same (`type: broadcast`, the default), as a project import writes it (`equivalence.ts`).
 */
function setOut(member: Member, key: ManagedKey): YamlOut | undefined {
  const wanted = member.imported.wanted.get(key);
  if (wanted?.kind !== "set" || equivalent(key, undefined, wanted, member.catalogs)) return undefined;
  return wanted.out;
}

function renderTemplateFile(
  input: TemplateImportInput,
  members: readonly Member[],
  variants: ReadonlyMap<string, ReadonlyMap<string, readonly Project[]>>,
): string {
  const languageOrder = [...variants.keys()].sort((a, b) =>
    a === "en" ? -1 : b === "en" ? 1 : a < b ? -1 : 1,
  );
  const message: YamlOut = {
    kind: "map",
    pairs: languageOrder.map((l) => {
      const text = [...(variants.get(l)?.keys() ?? [])][0] ?? "";
      return [l, { kind: "scalar", value: text, message: true }] as const;
    }),
  };
  const templatePairs: [string, YamlOut][] = [["message", message]];
  const shared = new Map<ManagedKey, YamlOut>();
  for (const key of GROUPED_KEYS) {
    const value = sharedValue(members.map((m) => setOut(m, key)));
    if (value !== undefined) {
      shared.set(key, value);
      templatePairs.push([key, value]);
    }
  }
  const schedules = members.map((m) => localScheduleOf(m.imported));
  const sharedSchedule = sharedValue(schedules.map((s) => s?.out));
  if (sharedSchedule !== undefined) templatePairs.push(["schedule", sharedSchedule]);
  const sharedZone = sharedValue(schedules.map((s) => (s === undefined ? undefined : scalar(s.timezone))));
  if (sharedZone !== undefined) templatePairs.push(["timezone", sharedZone]);

  const instancePairs = members.map((m, i): readonly [string, YamlOut] => {
    const pairs: [string, YamlOut][] = [
      ["organization", scalar(m.organization)],
      ["id", scalar(m.project.project_id)],
      ["language", scalar(m.language)],
    ];
    const schedule = schedules[i];
    if (
      schedule !== undefined &&
      (sharedZone === undefined || keyOfOut(sharedZone) !== keyOfOut(scalar(schedule.timezone)))
    )
      pairs.push(["timezone", scalar(schedule.timezone)]);
    for (const key of GROUPED_KEYS) {
      const own = setOut(m, key);
      const common = shared.get(key);
      if (own !== undefined && (common === undefined || keyOfOut(own) !== keyOfOut(common)))
        pairs.push([key, own]);
    }
    if (
      schedule !== undefined &&
      (sharedSchedule === undefined || keyOfOut(schedule.out) !== keyOfOut(sharedSchedule))
    )
      pairs.push(["schedule", schedule.out]);
    const pause = setOut(m, "pause");
    if (pause !== undefined) pairs.push(["pause", pause]);
    return [m.address, { kind: "map", pairs }];
  });

  const fields = [...new Set(members.flatMap((m) => m.imported.customFields))].sort();
  const lines: string[] = HEADER(input.schema, input.template).map((h) => (h === "" ? "#" : `# ${h}`));
  lines.push("version: 1");
  if (fields.length > 0)
    lines.push(renderPair("fields", { kind: "seq", items: fields.map((f) => scalar(f)) }, 0));
  lines.push("templates:");
  lines.push(`  ${renderPair(input.template, { kind: "map", pairs: templatePairs }, 2)}`);
  lines.push("    instances:");
  instancePairs.forEach(([address, out], i) => {
    if (i > 0) lines.push("");
    lines.push(`      ${renderPair(address, out, 6)}`);
  });
  return `${lines.join("\n")}\n`;
}

/** `import.template-schedule-repeated`: a live time that a template's local time cannot say. */
function repeatedDiagnostic(
  m: Member,
  time: { readonly local: string; readonly read: string; readonly live: string },
): Diagnostic {
  return {
    severity: "error",
    code: "import.template-schedule-repeated",
    message: `${m.project.name} (${m.project.project_id}) is scheduled at the second ${time.local} (${time.live}): clocks fall back that night, and a template's local time means the first, ${time.read}`,
    hint: "import it without --template (its `at` keeps the offset), or reschedule it in the dashboard; nothing was written",
  };
}
