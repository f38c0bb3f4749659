/**
 * The worlds of the reserved-name test (issue 34, point 2): the example campaign (examples/gotv.yaml
 * and its sandbox world) with one kind of user-named key set to reserved JavaScript names, a list
 * of them at once: where the kind's key is one of a kind (a project's id, a file's organization,
 * a link's merge field, a list's consent column, a live line's name), a copy of what holds it per
 * name (the first name takes the original, so a one-name world is the world of one name alone).
 * Every map is built with computed keys, `entry()` or `each()` (never `object[name] = value`, which
 * for `__proto__` would replace the prototype instead of adding the key), so each file holds the
 * names as written.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, exampleFixture } from "../sandbox/helpers.js";

/** Every name `Object.prototype` answers for (and `prototype`), each a key of some user's map. */
export const RESERVED_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
] as const;

export const EMAIL_LIST = "e2000000-0000-4000-8000-000000000001";
const EMAIL_CAMPAIGN = "e4000000-0000-4000-8000-000000000001";
const REMINDER = "9a000000-0000-4000-8000-000000000001";
const FOLLOWUP = "9a000000-0000-4000-8000-000000000002";

type Json = Record<string, unknown>;

/** A one-entry map `{name: value}` with `name` an own key whatever it is. */
export const entry = (name: string, value: unknown): Json => Object.fromEntries([[name, value]]);

/** What one kind of key puts into the world: campaign files (objects or text), policy, fixture. */
export interface ReservedWorld {
  /** Files under the repository, by path: YAML data, or raw text (a CSV). */
  readonly files: Readonly<Record<string, Json | string>>;
  /** The policy file at the repository's root (default: examples/campaignctl.policy.yaml). */
  readonly policy?: Json;
  /** Changes to the example sandbox world. */
  readonly fixture?: (f: Fixture) => void;
  /** Extra flags of plan and apply (`--target`). */
  readonly select?: readonly string[];
  /** Also run the commands that name it on the command line or read only the live world (import). */
  readonly live?: boolean;
  /** Also plan to a file and apply that saved plan (the name is in a request body or a plan's map). */
  readonly saved?: boolean;
  /** What the live world holds after the commands ran (the name kept as data), in words; checked equal. */
  readonly outcome?: { readonly read: (sb: SandboxHandle) => Promise<unknown>; readonly expected: unknown };
}

/** The example files, parsed once (each world takes a fresh copy: worlds change what they take). */
const exampleData = (file: string): unknown =>
  parse(readFileSync(fileURLToPath(new URL(`../../examples/${file}`, import.meta.url)), "utf8"));
const gotvData = exampleData("gotv.yaml");
const policyData = exampleData("campaignctl.policy.yaml");

/** examples/campaignctl.policy.yaml as data (fresh each time). */
export const examplePolicy = (): Json => structuredClone(policyData) as Json;

/** examples/gotv.yaml as data (fresh each time). */
function gotv(): Json & { projects: Record<string, Json>; defaults: Json } {
  return structuredClone(gotvData) as Json & { projects: Record<string, Json>; defaults: Json };
}

/** `{name: value(name, i)}` for each name, each an own key whatever it is. */
const each = (names: readonly string[], value: (name: string, i: number) => unknown): Json =>
  Object.fromEntries(names.map((name, i) => [name, value(name, i)]));

/** The i-th copy's suffix of an address or file name ("" for the first: one name is the old world). */
const nth = (i: number): string => (i === 0 ? "" : `-${i}`);

/** The i-th copy of a fixture id (the id itself for i = 0); distinct for i < 100. */
export const copyId = (id: string, i: number): string =>
  i === 0 ? id : `${id.slice(0, -6)}${String(i).padStart(2, "0")}${id.slice(-4)}`;

/**
 * A copy of the live projects `ids` for each name after the first (ids `copyId(id, i)`), so that
 * each name's copy of a project matches a live one, as the one project of a one-name world did.
 */
function copyProjects(f: Fixture, ids: readonly string[], count: number): void {
  for (const id of ids) {
    const project = f.projects?.find((p) => p.project_id === id);
    if (project === undefined) throw new Error(`no project ${id} in the example world`);
    for (let i = 1; i < count; i += 1)
      f.projects?.push({ ...structuredClone(project), project_id: copyId(id, i) });
  }
}

/** A copy of the example email list (and campaign) for each name after the first. */
function copyEmail(f: Fixture, count: number): void {
  const [list] = f.email?.lists ?? [];
  const [campaign] = f.email?.campaigns ?? [];
  if (list === undefined || campaign === undefined) throw new Error("no email list in the reserved world");
  for (let i = 1; i < count; i += 1) {
    f.email?.lists?.push({ ...structuredClone(list), id: copyId(EMAIL_LIST, i), name: `Volunteers ${i}` });
    f.email?.campaigns?.push({
      ...structuredClone(campaign),
      id: copyId(EMAIL_CAMPAIGN, i),
      name: `Volunteer newsletter ${i}`,
      list_ids: [copyId(EMAIL_LIST, i)],
    });
  }
}

/** The example's reminder and follow-up (fresh copies of gotv.yaml's, to change and place). */
function gotvProjects(g: ReturnType<typeof gotv>): { reminder: Json; followup: Json } {
  const { "gotv-reminder": reminder, "gotv-followup": followup } = g.projects;
  if (reminder === undefined || followup === undefined)
    throw new Error("examples/gotv.yaml has no reminder or follow-up");
  return { reminder: { ...reminder }, followup: { ...followup } };
}

/** The example reminder under each name, with its own copy of the live project; the follow-up after them all. */
function renamedProject(names: readonly string[]): ReservedWorld {
  const g = gotv();
  const { "gotv-reminder": reminder, "gotv-followup": followup } = g.projects;
  g.projects = {
    ...each(names, (_, i) => ({ ...reminder, id: copyId(REMINDER, i) })),
    "gotv-followup": { ...followup, after: [...names] },
  };
  return {
    files: { "campaign/gotv.yaml": g },
    saved: true,
    fixture: (f) => copyProjects(f, [REMINDER], names.length),
  };
}

/**
 * A template under each name, with the example projects as its instances (a copy of each per name)
 * and their live texts as its variants (so no drift): it plans and applies, a test send each.
 */
function templateName(names: readonly string[]): ReservedWorld {
  return {
    saved: true,
    fixture: (f) => copyProjects(f, [REMINDER, FOLLOWUP], names.length),
    files: {
      "campaign/template.yaml": {
        version: 1,
        fields: ["polling_place"],
        templates: each(names, (_, i) => ({
          message: {
            en: "Hi {{first_name|friend}}, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm at {{polling_place|your polling place}}. Reply STOP to opt out",
            "en-US":
              "{{first_name|friend}}, polls close at 7pm tonight! There is still time to vote at {{polling_place|your polling place}}. Reply STOP to opt out",
          },
          channel: "10dlc",
          brand: "Riverside Democrats",
          campaign: "GOTV 2026",
          phone_numbers: ["+15035550101", "+15035550102"],
          contact_lists: ["Ward 3 Likely Voters"],
          suppression_lists: ["Do Not Text"],
          state: "tested",
          test: { contacts: [{ phone: "+15035550150" }] },
          instances: {
            [`reminder-en${nth(i)}`]: {
              organization: "Riverside Democrats",
              id: copyId(REMINDER, i),
              language: "en",
            },
            [`followup-us${nth(i)}`]: {
              organization: "Riverside Democrats",
              id: copyId(FOLLOWUP, i),
              language: "en-US",
            },
          },
        })),
      },
    },
  };
}

/**
 * Each name as a language: a reply rule's keyword language, and a template (under the name) with a
 * message variant in it and an instance in it (the schema refuses each: a language tag is 2 or 3
 * letters).
 */
function languages(names: readonly string[]): ReservedWorld {
  const g = gotv();
  (g.projects["gotv-reminder"] as Json).replies = {
    rules: [
      {
        name: "where",
        keywords: { en: ["where"], ...each(names, () => ["donde"]) },
        answer: "At the library.",
      },
    ],
  };
  return {
    files: {
      "campaign/gotv.yaml": g,
      "campaign/template.yaml": {
        version: 1,
        merge_defaults: { first_name: "friend" },
        templates: each(names, (name, i) => ({
          message: {
            en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out",
            es: "Hola {{first_name|amigo}}, vota el martes. Responde STOP para no recibir mas",
            ...entry(name, "Hi. Reply STOP to opt out"),
          },
          channel: "10dlc",
          brand: "Riverside Democrats",
          campaign: "GOTV 2026",
          state: "draft",
          instances: {
            [`reminder-en${nth(i)}`]: {
              organization: "Riverside Democrats",
              id: copyId(REMINDER, i),
              language: "en",
            },
            [`followup-es${nth(i)}`]: {
              organization: "Riverside Democrats",
              id: copyId(FOLLOWUP, i),
              language: name,
            },
          },
        })),
      },
    },
    fixture: (f) => copyProjects(f, [REMINDER, FOLLOWUP], names.length),
  };
}

/** Each name as an instance's address, and as the organization of a follow-up after it. */
function instance(names: readonly string[]): ReservedWorld {
  return {
    fixture: (f) => copyProjects(f, [REMINDER, FOLLOWUP], names.length),
    files: {
      "campaign/template.yaml": {
        version: 1,
        templates: {
          reminder: {
            message: { en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out" },
            state: "draft",
            instances: {
              ...each(names, (_, i) => ({
                organization: "Riverside Democrats",
                id: copyId(REMINDER, i),
                language: "en",
              })),
              ...Object.fromEntries(
                names.map((name, i) => [
                  `followup${nth(i)}`,
                  { organization: name, id: copyId(FOLLOWUP, i), language: "en", after: [name] },
                ]),
              ),
            },
          },
        },
      },
    },
  };
}

/**
 * Each name as a merge field: declared, with a default, a test contact's value (the reminder sends
 * its test with them); in a follow-up's message and link tracking too, a follow-up (and its live
 * copy) per name, as link tracking takes one field (drift there: blocked).
 */
function mergeField(names: readonly string[]): ReservedWorld {
  const g = gotv();
  g.fields = [...(g.fields as string[]), ...names];
  g.merge_defaults = { ...(g.merge_defaults as Json), ...each(names, () => "everyone") };
  const { reminder, followup } = gotvProjects(g);
  reminder.test = {
    contacts: [
      { phone: "+15035550150", merge_values: { first_name: "Maria", ...each(names, () => "Ward 3") } },
    ],
  };
  g.projects = {
    "gotv-reminder": reminder,
    ...Object.fromEntries(
      names.map((name, i) => [
        `gotv-followup${nth(i)}`,
        {
          ...followup,
          id: copyId(FOLLOWUP, i),
          message: `${followup.message} {{${name}}} {{${name}|you}}`,
          link_tracking: { destination_url: "https://riversidedems.org/vote", param_field: name },
        },
      ]),
    ),
  };
  return {
    files: { "campaign/gotv.yaml": g },
    saved: true,
    fixture: (f) => copyProjects(f, [FOLLOWUP], names.length),
  };
}

/**
 * Each name as the names a campaign file writes (organization, brand, campaign, numbers, lists,
 * media, label, tracking domain): a copy of the example file per name (they are one per file), its
 * projects' addresses and ids made its own.
 */
function references(names: readonly string[]): ReservedWorld {
  const files = names.map((name, i) => {
    const g = gotv();
    g.organization = name;
    Object.assign(g.defaults, {
      brand: name,
      campaign: name,
      phone_numbers: [name],
      contact_lists: [name],
      suppression_lists: [name],
    });
    const { reminder, followup } = gotvProjects(g);
    reminder.id = copyId(REMINDER, i);
    reminder.media = [name];
    reminder.labels = entry(name, name);
    reminder.link_tracking = { destination_url: "https://riversidedems.org/vote", domain: name };
    g.projects = {
      [`gotv-reminder${nth(i)}`]: reminder,
      [`gotv-followup${nth(i)}`]: { ...followup, id: copyId(FOLLOWUP, i), after: [`gotv-reminder${nth(i)}`] },
    };
    return [`campaign/gotv${nth(i)}.yaml`, g] as const;
  });
  return {
    files: Object.fromEntries(files),
    fixture: (f) => copyProjects(f, [REMINDER, FOLLOWUP], names.length),
  };
}

function capacity(names: readonly string[]): ReservedWorld {
  const g = gotv();
  g.capacity = {
    brands: { ...each(names, () => ({ daily_cap: 5 })), "Riverside Democrats": { daily_cap: 20 } },
  };
  return {
    files: { "campaign/gotv.yaml": g },
    saved: true,
    policy: {
      ...examplePolicy(),
      capacity: {
        brands: { ...each(names, () => ({ daily_cap: 10 })), "Riverside Democrats": { daily_cap: 30 } },
      },
    },
  };
}

function policyLanguages(names: readonly string[]): ReservedWorld {
  const policy = examplePolicy();
  policy.rules = {
    ...(policy.rules as Json),
    opt_out_wording: each(names, () => ["Reply STOP"]),
    replies: { opt_out_words: each(names, () => ["halt"]) },
  };
  return { files: { "campaign/gotv.yaml": gotv() }, policy };
}

/**
 * Each name as a CSV column: a merge field sent with each row, and (with " source") the consent
 * column's header, which is one a list: an email list (and its live copy) per name.
 */
function csvColumn(names: readonly string[]): ReservedWorld {
  const lists = names.map((name, i) => ({
    name,
    id: copyId(EMAIL_LIST, i),
    csv: `lists/volunteers${nth(i)}.csv`,
    text: `email,${name},city,${name} source,consent_at\nann@example.org,a,Riverside,web,2026-03-01T09:30:00Z\nbob@example.org,b,Lakeview,door,2026-03-02T09:30:00Z\n`,
  }));
  return {
    files: {
      "campaign/email.yaml": {
        version: 1,
        organization: "Riverside Democrats",
        email_lists: Object.fromEntries(
          lists.map((l, i) => [
            `volunteers${nth(i)}`,
            { id: l.id, csv: l.csv, columns: { consent_source: `${l.name} source` } },
          ]),
        ),
      },
      ...Object.fromEntries(lists.map((l) => [`campaign/${l.csv}`, l.text])),
    },
    saved: true,
    policy: {
      ...examplePolicy(),
      rules: { ...(examplePolicy().rules as Json), require_email_consent: true },
    },
    fixture: (f) => copyEmail(f, names.length),
    // Every row of every list sent once, its column under its name, whatever the name is.
    outcome: {
      read: async (sb) =>
        Promise.all(
          lists.map(async (l) =>
            ((await admin(sb, "GET", `/email/lists/${l.id}`)).body.data.contacts as { fields: Json }[]).map(
              (c) => JSON.stringify(c.fields),
            ),
          ),
        ),
      expected: lists.map((l) => [
        JSON.stringify({ ...entry(l.name, "a"), city: "Riverside" }),
        JSON.stringify({ ...entry(l.name, "b"), city: "Lakeview" }),
      ]),
    },
  };
}

/**
 * Each name as an email list's address (its consent column and a field too) and an email campaign's
 * address: a list (its CSV and live copy) and a campaign per name; the newsletter takes them all.
 */
function email(names: readonly string[]): ReservedWorld {
  return {
    files: {
      "campaign/email.yaml": {
        version: 1,
        organization: "Riverside Democrats",
        email_lists: each(names, (name, i) => ({
          id: copyId(EMAIL_LIST, i),
          csv: `lists/volunteers${nth(i)}.csv`,
          columns: { consent_source: name },
          fields: [name, "city"],
        })),
        email_campaigns: {
          ...each(names, (name, i) => ({ id: copyId(EMAIL_CAMPAIGN, i), lists: [name] })),
          newsletter: { name: "Volunteer newsletter", lists: [...names, EMAIL_LIST] },
        },
      },
      ...Object.fromEntries(
        names.map((name, i) => [
          `campaign/lists/volunteers${nth(i)}.csv`,
          `email,${name},city,consent_at\nann@example.org,web form,Riverside,2026-03-01T09:30:00Z\nbob@example.org,door,Lakeview,2026-03-02T09:30:00Z\n`,
        ]),
      ),
    },
    saved: true,
    policy: {
      ...examplePolicy(),
      rules: { ...(examplePolicy().rules as Json), require_email_consent: true },
    },
    fixture: (f) => copyEmail(f, names.length),
  };
}

/** Each name as a reply rule's name and keyword, and in a rule's pattern. */
function replyRules(names: readonly string[]): ReservedWorld {
  const g = gotv();
  (g.projects["gotv-reminder"] as Json).replies = {
    rules: names.flatMap((name, i) => [
      {
        name,
        keywords: { en: [name, `where${nth(i)}`], es: [`donde${nth(i)}`] },
        answer: "Vote at the library.",
      },
      {
        name: `who${nth(i)}`,
        pattern: `\\b${name}\\b`,
        answer: "This is the Riverside Democrats' GOTV team.",
      },
    ]),
  };
  return { files: { "campaign/gotv.yaml": g } };
}

/** Each name as a project's id: a copy of the reminder per name, its live copy under that id. */
function projectId(names: readonly string[]): ReservedWorld {
  const g = gotv();
  const { reminder, followup } = gotvProjects(g);
  const addresses = names.map((_, i) => `gotv-reminder${nth(i)}`);
  g.projects = {
    ...Object.fromEntries(names.map((name, i) => [addresses[i], { ...reminder, id: name }])),
    "gotv-followup": { ...followup, after: addresses },
  };
  return {
    files: { "campaign/gotv.yaml": g },
    fixture: (f) => {
      const p = f.projects?.find((x) => x.project_id === REMINDER);
      if (p === undefined) throw new Error("no reminder in the example world");
      f.projects = [
        ...(f.projects ?? []).filter((x) => x !== p),
        ...names.map((name) => ({ ...structuredClone(p), project_id: name })),
      ];
    },
  };
}

/** The i-th copy of a live record (the record itself for i = 0), with its id made its own. */
function copies<T extends { id: string }>(record: T, count: number, edit: (copy: T, i: number) => void): T[] {
  return Array.from({ length: count }, (_, i) => {
    const copy = i === 0 ? record : { ...structuredClone(record), id: copyId(record.id, i) };
    edit(copy, i);
    return copy;
  });
}

/**
 * Each name as the names and ids of the live world's records, and its merge fields: the
 * organization's merge defaults and custom fields, every contact's fields (all names at once);
 * a follow-up (in the file and live) per name under its name, the other live projects under the
 * names in turn; and a copy per name of the records that are one of a kind: the toll-free line
 * and the prospects list under the name, the do-not-text list under the name as its id (the
 * follow-up of that name suppresses it, its file naming it "Do Not Text" and a number).
 */
function liveRecords(names: readonly string[]): ReservedWorld {
  const g = gotv();
  const { reminder, followup } = gotvProjects(g);
  const dnt = (i: number): string => `Do Not Text${i === 0 ? "" : ` ${i}`}`;
  g.projects = {
    "gotv-reminder": reminder,
    ...Object.fromEntries(
      names.map((_, i) => [
        `gotv-followup${nth(i)}`,
        { ...followup, id: copyId(FOLLOWUP, i), suppression_lists: [dnt(i)] },
      ]),
    ),
  };
  return {
    files: { "campaign/gotv.yaml": g },
    live: true,
    fixture: (f) => {
      const at = (i: number): string => names[i % names.length] ?? "";
      const org = f.organizations[0];
      if (org !== undefined) {
        org.merge_defaults = { ...org.merge_defaults, ...each(names, () => "friend") } as Record<
          string,
          string
        >;
        org.custom_fields = [
          ...(org.custom_fields ?? []),
          ...names.map((name) => name.toLowerCase().replace(/[^a-z0-9_]/g, "_")),
        ];
        org.email_available = true;
      }
      copyProjects(f, [FOLLOWUP], names.length);
      const others = (f.projects ?? []).filter((p) => p.project_id !== REMINDER);
      const followups = names.map((_, i) => copyId(FOLLOWUP, i));
      for (const [i, p] of others.entries()) {
        const n = followups.indexOf(p.project_id);
        p.name = at(n >= 0 ? n : i);
      }
      const [line, ...lines] = f.toll_free_verifications ?? [];
      if (line === undefined) throw new Error("no toll-free line in the example world");
      f.toll_free_verifications = [...copies(line, names.length, (l, i) => (l.name = at(i))), ...lines];
      const lists = f.contact_lists ?? [];
      const prospects = lists.find((l) => l.name === "Volunteer Prospects");
      const [list, ...suppressions] = f.suppression_lists ?? [];
      if (prospects === undefined || list?.name !== "Do Not Text")
        throw new Error("no prospects or do-not-text list");
      const listId = list.id;
      f.contact_lists = [
        ...lists.filter((l) => l !== prospects),
        ...copies(prospects, names.length, (l, i) => (l.name = at(i))),
      ];
      f.suppression_lists = [
        ...copies(list, names.length, (l, i) => {
          l.id = at(i);
          l.name = dnt(i);
        }),
        ...suppressions,
      ];
      for (const l of [...f.contact_lists, ...f.suppression_lists])
        for (const c of l.contacts ?? [])
          c.fields = { ...c.fields, ...each(names, () => "x") } as Record<string, string>;
      for (const p of f.projects ?? []) {
        const n = followups.indexOf(p.project_id);
        if (p.suppression_list_ids !== undefined)
          p.suppression_list_ids = p.suppression_list_ids.map((id) =>
            id === listId ? at(n >= 0 ? n : 0) : id,
          );
      }
    },
  };
}

/** The names only on the command line (`--target` and `--exclude`, each name given to each). */
function selectors(names: readonly string[]): ReservedWorld {
  return {
    files: { "campaign/gotv.yaml": gotv() },
    select: names.flatMap((name) => ["--target", name, "--exclude", name]),
    live: true,
  };
}

/** The schema's `address` (projects, templates, instances, email lists and campaigns, reply rules). */
const ADDRESS = /^[a-z0-9][a-z0-9-]*$/;

/**
 * How a kind's names are put into worlds: all eleven in one world; or those that are valid
 * addresses in one world and the others in another (validation refuses the others, and one refused
 * name stops every command before the API, so the valid ones would never reach it).
 */
export type Grouping = "together" | "addresses";

/** One kind of key a user names: in words, a short id, its world for a list of names, its grouping. */
export interface Kind {
  readonly id: string;
  readonly words: string;
  readonly build: (names: readonly string[]) => ReservedWorld;
  readonly grouping: Grouping;
}

/** Every kind of key a user names, as the test's table. */
export const KINDS: readonly Kind[] = [
  {
    id: "project-address",
    words: "project address (and `after:`)",
    build: renamedProject,
    grouping: "addresses",
  },
  { id: "template-name", words: "template name", build: templateName, grouping: "addresses" },
  {
    id: "language",
    words: "language (template message variant, instance language, reply keywords)",
    build: languages,
    grouping: "together",
  },
  {
    id: "instance",
    words: "template instance address and organization",
    build: instance,
    grouping: "addresses",
  },
  {
    id: "merge-field",
    words: "merge field (fields, merge_defaults, tags, merge_values, param_field)",
    build: mergeField,
    grouping: "together",
  },
  {
    id: "references",
    words: "names written in a file (organization, brand, lists, numbers, media, domain, label)",
    build: references,
    grouping: "addresses",
  },
  {
    id: "capacity",
    words: "capacity brand (campaign file and policy)",
    build: capacity,
    grouping: "together",
  },
  {
    id: "policy-languages",
    words: "policy languages (opt_out_wording, replies.opt_out_words)",
    build: policyLanguages,
    grouping: "together",
  },
  {
    id: "email",
    words: "email list and email campaign address (and their CSV column)",
    build: email,
    grouping: "addresses",
  },
  { id: "csv-column", words: "CSV column", build: csvColumn, grouping: "together" },
  { id: "reply-rule", words: "reply rule name and keyword", build: replyRules, grouping: "addresses" },
  { id: "project-id", words: "project id", build: projectId, grouping: "together" },
  {
    id: "live-records",
    words: "live records (names, ids, merge defaults, contact fields)",
    build: liveRecords,
    grouping: "together",
  },
  { id: "selectors", words: "--target and --exclude", build: selectors, grouping: "together" },
];

/** The lists of names a kind's worlds hold (see Grouping), each non-empty. */
export function groupsOf(kind: Kind): readonly (readonly string[])[] {
  switch (kind.grouping) {
    case "together":
      return [RESERVED_NAMES];
    case "addresses":
      return [RESERVED_NAMES.filter((n) => ADDRESS.test(n)), RESERVED_NAMES.filter((n) => !ADDRESS.test(n))];
  }
}

/** The example world with email available to the parent organization (its list and campaign). */
export function reservedFixture(world: ReservedWorld): Fixture {
  const f = exampleFixture();
  const org = f.organizations[0];
  if (org !== undefined) org.email_available = true;
  f.email = {
    lists: [{ id: EMAIL_LIST, name: "Volunteers", organization_id: org?.id ?? "" }],
    campaigns: [
      {
        id: EMAIL_CAMPAIGN,
        name: "Volunteer newsletter",
        organization_id: org?.id ?? "",
        status: "draft",
        list_ids: [EMAIL_LIST],
      },
    ],
  };
  world.fixture?.(f);
  return f;
}
