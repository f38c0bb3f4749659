/**
 * Jurisdiction rule packs: shipped, versioned data files of state rules on the hours a message may
 * reach a state's residents (`packs/*.json`, `schemas/jurisdiction-pack.schema.json`,
 * docs/places.md). Rules are data a compliance lead reads, cites and chooses, never code: every
 * rule carries its statute's citation and link and the date it was checked, and a pack whose rule
 * lacks one is refused (`checkPack`). Pure: the packs are part of the module.
 */
import type { SendWindow } from "../text/send-window.js";
import usStateHours from "./packs/us-state-hours.json" with { type: "json" };
import { isStateCode, type StateCode } from "./states.js";

/** The days of the week, Monday first (luxon's weekday 1 to 7). */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The messages a rule applies to: political ones, commercial ones, or any message. */
export type MessageKind = "political" | "commercial" | "any";

/**
 * The messages a policy says it sends (`jurisdictions.messages`): political or commercial ones (the
 * rules for that kind and for any apply), or `all`: every rule applies, whatever its kind.
 */
export type PolicyMessages = "political" | "commercial" | "all";

/**
 * One state rule. Invariants (checkPack): `citation`, `link` and `checked` are set (`checked` a
 * `YYYY-MM-DD` date); `days` non-empty and unique; `hours` null means no message may reach the
 * state's residents on those days, else the allowed local hours `[from, to)` with `from < to`.
 */
export interface JurisdictionRule {
  /** Stable within its pack (`FL-hours`, `TX-sun`). */
  readonly id: string;
  readonly state: StateCode;
  readonly days: readonly Weekday[];
  readonly hours: SendWindow | null;
  readonly applies_to: MessageKind;
  /** The statute, as a lawyer cites it (`Fla. Stat. § 501.616(6)(a)`). */
  readonly citation: string;
  /** Where the statute's text can be read. */
  readonly link: string;
  /** When the rule was last checked against the statute, `YYYY-MM-DD`. */
  readonly checked: string;
  /** The rule in words. */
  readonly summary: string;
  /** What the data does not model, or how it reads the statute. */
  readonly note?: string;
}

/** A pack: a named, versioned set of rules. Invariant: rule ids are unique; a state's rules name each day at most once. */
export interface JurisdictionPack {
  readonly name: string;
  readonly version: number;
  readonly title: string;
  readonly checked: string;
  readonly rules: readonly JurisdictionRule[];
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

type Checked =
  | { readonly pack: JurisdictionPack; readonly problems: readonly [] }
  | { readonly problems: readonly string[] };

const text = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** The problems of one rule, each naming the rule (`rule 3 (FL-hours): no citation`). */
function ruleProblems(raw: unknown, index: number): string[] {
  if (typeof raw !== "object" || raw === null) return [`rule ${index + 1}: not an object`];
  const r = raw as Record<string, unknown>;
  const name = `rule ${index + 1}${text(r.id) ? ` (${r.id})` : ""}`;
  const out: string[] = [];
  if (!text(r.id)) out.push(`${name}: no id`);
  if (!text(r.state) || !isStateCode(r.state))
    out.push(`${name}: state ${JSON.stringify(r.state)} is not a known state code`);
  if (!text(r.citation)) out.push(`${name}: no citation (every rule cites its statute)`);
  if (!text(r.link) || !/^https?:\/\/\S+$/.test(r.link)) out.push(`${name}: no link to the statute's text`);
  if (!text(r.checked) || !DATE.test(r.checked))
    out.push(`${name}: no checked date (YYYY-MM-DD: when the rule was last checked)`);
  if (!text(r.summary)) out.push(`${name}: no summary`);
  if (!["political", "commercial", "any"].includes(r.applies_to as string))
    out.push(`${name}: applies_to must be political, commercial or any`);
  const days = r.days;
  if (
    !Array.isArray(days) ||
    days.length === 0 ||
    new Set(days).size !== days.length ||
    !days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d))
  )
    out.push(`${name}: days must be a non-empty list of distinct mon ... sun`);
  const h = r.hours as { from?: unknown; to?: unknown } | null | undefined;
  if (h !== null) {
    const ok =
      typeof h === "object" &&
      text(h.from) &&
      text(h.to) &&
      TIME.test(h.from) &&
      TIME.test(h.to) &&
      h.from < h.to;
    if (!ok) out.push(`${name}: hours must be null (no message that day) or {from, to} with from before to`);
  }
  return out;
}

/**
 * `data` as a pack, or its problems: a rule without a citation, a link or a checked date is
 * refused, and so is one a state's other rule already covers for a day. The shipped packs are
 * checked when this module loads (a bad one is a bug of the release) and by the tests.
 */
export function checkPack(data: unknown): Checked {
  if (typeof data !== "object" || data === null) return { problems: ["the pack is not an object"] };
  const p = data as Record<string, unknown>;
  const problems: string[] = [];
  if (!text(p.name) || !/^[a-z][a-z0-9-]*$/.test(p.name))
    problems.push("the pack has no name (lowercase, hyphens)");
  if (typeof p.version !== "number" || !Number.isInteger(p.version) || p.version < 1)
    problems.push("the pack has no version (an integer from 1)");
  if (!text(p.title)) problems.push("the pack has no title");
  if (!text(p.checked) || !DATE.test(p.checked)) problems.push("the pack has no checked date");
  if (!Array.isArray(p.rules) || p.rules.length === 0)
    return { problems: [...problems, "the pack has no rules"] };
  p.rules.forEach((r, i) => {
    problems.push(...ruleProblems(r, i));
  });
  if (problems.length > 0) return { problems };
  const rules = p.rules as JurisdictionRule[];
  const ids = new Set<string>();
  const days = new Set<string>();
  for (const r of rules) {
    if (ids.has(r.id)) problems.push(`rule ${r.id}: the id is used twice`);
    ids.add(r.id);
    for (const d of r.days) {
      if (days.has(`${r.state}:${r.applies_to}:${d}`))
        problems.push(`rule ${r.id}: ${r.state} already has a ${r.applies_to} rule for ${d}`);
      days.add(`${r.state}:${r.applies_to}:${d}`);
    }
  }
  if (problems.length > 0) return { problems };
  return {
    pack: {
      name: p.name as string,
      version: p.version as number,
      title: p.title as string,
      checked: p.checked as string,
      rules,
    },
    problems: [],
  };
}

function shipped(data: unknown): JurisdictionPack {
  const checked = checkPack(data);
  if (!("pack" in checked))
    throw new Error(`bug: a shipped jurisdiction pack is invalid: ${checked.problems.join("; ")}`);
  return checked.pack;
}

/** The packs campaignctl ships, by name. */
export const SHIPPED_PACKS: ReadonlyMap<string, JurisdictionPack> = new Map(
  [shipped(usStateHours)].map((p) => [p.name, p]),
);

/** A policy's reference to a pack: its name, with `@VERSION` to pin the version it was reviewed at. */
export function parsePackReference(reference: string): { readonly name: string; readonly version?: number } {
  const at = reference.indexOf("@");
  return at < 0
    ? { name: reference }
    : { name: reference.slice(0, at), version: Number(reference.slice(at + 1)) };
}

/**
 * The rules a policy's choice puts in force: every rule of the packs it names that applies to its
 * messages (`political` or `commercial`: the rules for that kind and for any; `all`: every rule
 * whatever its kind). Unknown packs and pinned versions that differ are the caller's to report.
 */
export function chosenRules(
  packs: readonly JurisdictionPack[],
  messages: PolicyMessages,
): readonly JurisdictionRule[] {
  return packs.flatMap((p) =>
    p.rules.filter((r) => messages === "all" || r.applies_to === "any" || r.applies_to === messages),
  );
}
