/**
 * The worlds of the reserved-name test (issue 34, point 2): the example campaign (examples/gotv.yaml
 * and its sandbox world) with one kind of user-named key set to a reserved JavaScript name. Every
 * map is built with computed keys or `entry()` (never `object[name] = value`, which for `__proto__`
 * would replace the prototype instead of adding the key), so each file holds the name as written.
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

/** The example reminder under another address, the follow-up after it. */
function renamedProject(name: string): ReservedWorld {
  const g = gotv();
  const { "gotv-reminder": reminder, "gotv-followup": followup } = g.projects;
  g.projects = { ...entry(name, reminder), "gotv-followup": { ...followup, after: [name] } };
  return { files: { "campaign/gotv.yaml": g }, saved: true };
}

/**
 * A template under the name, with the example projects as its instances and their live texts as
 * its variants (so no drift): it plans and applies, a test send each.
 */
function templateName(name: string): ReservedWorld {
  return {
    saved: true,
    files: {
      "campaign/template.yaml": {
        version: 1,
        fields: ["polling_place"],
        templates: entry(name, {
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
            "reminder-en": { organization: "Riverside Democrats", id: REMINDER, language: "en" },
            "followup-us": { organization: "Riverside Democrats", id: FOLLOWUP, language: "en-US" },
          },
        }),
      },
    },
  };
}

/**
 * The name as a language: a template's message variant, an instance's language, a reply rule's
 * keyword language (the schema refuses each: a language tag is 2 or 3 letters).
 */
function languages(name: string): ReservedWorld {
  const g = gotv();
  (g.projects["gotv-reminder"] as Json).replies = {
    rules: [
      { name: "where", keywords: { en: ["where"], ...entry(name, ["donde"]) }, answer: "At the library." },
    ],
  };
  return {
    files: {
      "campaign/gotv.yaml": g,
      "campaign/template.yaml": {
        version: 1,
        merge_defaults: { first_name: "friend" },
        templates: entry(name, {
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
            "reminder-en": { organization: "Riverside Democrats", id: REMINDER, language: "en" },
            "followup-es": { organization: "Riverside Democrats", id: FOLLOWUP, language: name },
          },
        }),
      },
    },
  };
}

function instance(name: string): ReservedWorld {
  return {
    files: {
      "campaign/template.yaml": {
        version: 1,
        templates: {
          reminder: {
            message: { en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out" },
            state: "draft",
            instances: {
              ...entry(name, { organization: "Riverside Democrats", id: REMINDER, language: "en" }),
              followup: { organization: name, id: FOLLOWUP, language: "en", after: [name] },
            },
          },
        },
      },
    },
  };
}

/**
 * The name as a merge field: declared, with a default, a test contact's value (the reminder sends
 * its test with it); in the follow-up's message and link tracking too (drift there: blocked).
 */
function mergeField(name: string): ReservedWorld {
  const g = gotv();
  g.fields = [...(g.fields as string[]), name];
  g.merge_defaults = { ...(g.merge_defaults as Json), ...entry(name, "everyone") };
  const followup = g.projects["gotv-followup"] as Json;
  followup.message = `${followup.message} {{${name}}} {{${name}|you}}`;
  followup.link_tracking = { destination_url: "https://riversidedems.org/vote", param_field: name };
  (g.projects["gotv-reminder"] as Json).test = {
    contacts: [{ phone: "+15035550150", merge_values: { first_name: "Maria", ...entry(name, "Ward 3") } }],
  };
  return { files: { "campaign/gotv.yaml": g }, saved: true };
}

function references(name: string): ReservedWorld {
  const g = gotv();
  g.organization = name;
  Object.assign(g.defaults, {
    brand: name,
    campaign: name,
    phone_numbers: [name],
    contact_lists: [name],
    suppression_lists: [name],
  });
  const reminder = g.projects["gotv-reminder"] as Json;
  reminder.media = [name];
  reminder.labels = entry(name, name);
  reminder.link_tracking = { destination_url: "https://riversidedems.org/vote", domain: name };
  return { files: { "campaign/gotv.yaml": g } };
}

function capacity(name: string): ReservedWorld {
  const g = gotv();
  g.capacity = { brands: { ...entry(name, { daily_cap: 5 }), "Riverside Democrats": { daily_cap: 20 } } };
  return {
    files: { "campaign/gotv.yaml": g },
    saved: true,
    policy: {
      ...examplePolicy(),
      capacity: { brands: { ...entry(name, { daily_cap: 10 }), "Riverside Democrats": { daily_cap: 30 } } },
    },
  };
}

function policyLanguages(name: string): ReservedWorld {
  const policy = examplePolicy();
  policy.rules = {
    ...(policy.rules as Json),
    opt_out_wording: entry(name, ["Reply STOP"]),
    replies: { opt_out_words: entry(name, ["halt"]) },
  };
  return { files: { "campaign/gotv.yaml": gotv() }, policy };
}

/** The name as a CSV column: a merge field sent with each row, and the consent column's header. */
function csvColumn(name: string): ReservedWorld {
  return {
    files: {
      "campaign/email.yaml": {
        version: 1,
        organization: "Riverside Democrats",
        email_lists: {
          volunteers: {
            id: EMAIL_LIST,
            csv: "lists/volunteers.csv",
            columns: { consent_source: `${name} source` },
          },
        },
      },
      "campaign/lists/volunteers.csv": `email,${name},city,${name} source,consent_at\nann@example.org,a,Riverside,web,2026-03-01T09:30:00Z\nbob@example.org,b,Lakeview,door,2026-03-02T09:30:00Z\n`,
    },
    saved: true,
    policy: {
      ...examplePolicy(),
      rules: { ...(examplePolicy().rules as Json), require_email_consent: true },
    },
    // Every row sent once, its column under the name, whatever the name is.
    outcome: {
      read: async (sb) =>
        ((await admin(sb, "GET", `/email/lists/${EMAIL_LIST}`)).body.data.contacts as { fields: Json }[]).map(
          (c) => JSON.stringify(c.fields),
        ),
      expected: [
        JSON.stringify({ ...entry(name, "a"), city: "Riverside" }),
        JSON.stringify({ ...entry(name, "b"), city: "Lakeview" }),
      ],
    },
  };
}

function email(name: string): ReservedWorld {
  return {
    files: {
      "campaign/email.yaml": {
        version: 1,
        organization: "Riverside Democrats",
        email_lists: entry(name, {
          id: EMAIL_LIST,
          csv: "lists/volunteers.csv",
          columns: { consent_source: name },
          fields: [name, "city"],
        }),
        email_campaigns: {
          ...entry(name, { id: EMAIL_CAMPAIGN, lists: [name] }),
          newsletter: { name: "Volunteer newsletter", lists: [name, EMAIL_LIST] },
        },
      },
      "campaign/lists/volunteers.csv": `email,${name},city,consent_at\nann@example.org,web form,Riverside,2026-03-01T09:30:00Z\nbob@example.org,door,Lakeview,2026-03-02T09:30:00Z\n`,
    },
    saved: true,
    policy: {
      ...examplePolicy(),
      rules: { ...(examplePolicy().rules as Json), require_email_consent: true },
    },
  };
}

function replyRules(name: string): ReservedWorld {
  const g = gotv();
  (g.projects["gotv-reminder"] as Json).replies = {
    rules: [
      { name, keywords: { en: [name, "where"], es: ["donde"] }, answer: "Vote at the library." },
      { name: "who", pattern: `\\b${name}\\b`, answer: "This is the Riverside Democrats' GOTV team." },
    ],
  };
  return { files: { "campaign/gotv.yaml": g } };
}

function projectId(name: string): ReservedWorld {
  const g = gotv();
  (g.projects["gotv-reminder"] as Json).id = name;
  return {
    files: { "campaign/gotv.yaml": g },
    fixture: (f) => {
      const p = f.projects?.find((x) => x.project_id === REMINDER);
      if (p !== undefined) p.project_id = name;
    },
  };
}

/** Names and ids of the live world's records, and its merge fields, set to the name. */
function liveRecords(name: string): ReservedWorld {
  return {
    files: { "campaign/gotv.yaml": gotv() },
    live: true,
    fixture: (f) => {
      const org = f.organizations[0];
      if (org !== undefined) {
        org.merge_defaults = { ...org.merge_defaults, ...entry(name, "friend") } as Record<string, string>;
        org.custom_fields = [...(org.custom_fields ?? []), name.toLowerCase().replace(/[^a-z0-9_]/g, "_")];
        org.email_available = true;
      }
      for (const p of f.projects ?? []) if (p.project_id !== REMINDER) p.name = name;
      const line = f.toll_free_verifications?.[0];
      if (line !== undefined) line.name = name;
      const prospects = f.contact_lists?.find((l) => l.name === "Volunteer Prospects");
      if (prospects !== undefined) prospects.name = name;
      for (const l of f.contact_lists ?? [])
        for (const c of l.contacts ?? [])
          c.fields = { ...c.fields, ...entry(name, "x") } as Record<string, string>;
      const list = f.contact_lists?.find((l) => l.name === "Do Not Text");
      if (list !== undefined) list.id = name;
      for (const p of f.projects ?? [])
        if (p.suppression_list_ids !== undefined)
          p.suppression_list_ids = p.suppression_list_ids.map((id) => (id === list?.id ? name : id));
    },
  };
}

function selectors(name: string): ReservedWorld {
  return {
    files: { "campaign/gotv.yaml": gotv() },
    select: ["--target", name, "--exclude", name],
    live: true,
  };
}

/** Every kind of key a user names, as the test's table: the kind, in words, and its world. */
export const KINDS: readonly (readonly [string, (name: string) => ReservedWorld])[] = [
  ["project address (and `after:`)", renamedProject],
  ["template name", templateName],
  ["language (template message variant, instance language, reply keywords)", languages],
  ["template instance address and organization", instance],
  ["merge field (fields, merge_defaults, tags, merge_values, param_field)", mergeField],
  ["names written in a file (organization, brand, lists, numbers, media, domain, label)", references],
  ["capacity brand (campaign file and policy)", capacity],
  ["policy languages (opt_out_wording, replies.opt_out_words)", policyLanguages],
  ["email list and email campaign address (and their CSV column)", email],
  ["CSV column", csvColumn],
  ["reply rule name and keyword", replyRules],
  ["project id", projectId],
  ["live records (names, ids, merge defaults, contact fields)", liveRecords],
  ["--target and --exclude", selectors],
];

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
