/**
 * Policy files combine as floors (design.md principle 10). The policy in force for a run is built
 * from every policy file above its campaign files, farthest (the repository root's) first, then
 * `--policy`: each layer may add a rule or tighten one; a looser value is refused
 * (`policy.loosens-ancestor`) unless the layer names the rule under `loosens:`; a rule some farther
 * layer lists under `locked:` can never be loosened (`policy.locked`). `--loosen-policy RULE` turns
 * a rule off for the run. Every loosening in force is kept in the result and reported as a warning
 * (`policy.loosened`), so no output can hide it. Pure.
 */

import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { parsePackReference } from "../jurisdictions/index.js";
import { own } from "../text/names.js";
import { windowCoversMinute } from "../text/send-window.js";
import { approvalsAtLeastAsStrict } from "./approvals-rule.js";
import { budgetsAtLeastAsStrict } from "./budget-rule.js";
import { combinePolicyCapacity } from "./capacity.js";
import { helpAtLeastAsStrict } from "./help-rule.js";
import {
  type DailyCapBypassRule,
  type JurisdictionsRule,
  type Loosening,
  POLICY_RULE_NAMES,
  type Policy,
  type PolicyRuleName,
  type PolicyRules,
  type SendWindow,
} from "./model.js";
import { policyRuleText } from "./rule-text.js";
import { suppressionAtLeastAsStrict } from "./suppression-rule.js";

/** The flag that turns a rule off for one run. */
export const LOOSEN_FLAG = "--loosen-policy";

/** The policy in force, or null when no layer has a rule and nothing was loosened; and what was wrong. */
export interface CombinedPolicy {
  readonly policy: Policy | null;
  readonly diagnostics: readonly Diagnostic[];
}

const CAP_RANK: Readonly<Record<DailyCapBypassRule, number>> = { allow: 0, require_label: 1, forbid: 2 };

/** Does `inner` start sends only at minutes `outer` allows? (Windows are whole minutes, src/text/send-window.ts.) */
function within(inner: SendWindow, outer: SendWindow): boolean {
  for (let m = 0; m < 24 * 60; m++)
    if (windowCoversMinute(inner, m) && !windowCoversMinute(outer, m)) return false;
  return true;
}

/** Is `next` at least as strict as `current` for `rule`? */
export function atLeastAsStrict(rule: PolicyRuleName, next: PolicyRules, current: PolicyRules): boolean {
  switch (rule) {
    case "daily_cap_bypass":
      return CAP_RANK[next.daily_cap_bypass ?? "allow"] >= CAP_RANK[current.daily_cap_bypass ?? "allow"];
    case "min_test_contacts":
      return (next.min_test_contacts ?? 0) >= (current.min_test_contacts ?? 0);
    case "max_estimated_cost_usd":
      return (
        (next.max_estimated_cost_usd ?? Number.POSITIVE_INFINITY) <=
        (current.max_estimated_cost_usd ?? Number.POSITIVE_INFINITY)
      );
    case "send_window": {
      const n = next.send_window;
      const c = current.send_window;
      return c === undefined || (n !== undefined && within(n, c));
    }
    case "jurisdictions":
      return jurisdictionsAtLeastAsStrict(next.jurisdictions, current.jurisdictions);
    case "require_places":
      return next.require_places === true || current.require_places !== true;
    case "require_opt_out_language":
      return next.require_opt_out_language === true || current.require_opt_out_language !== true;
    case "forbid_at_now":
      return next.forbid_at_now === true || current.forbid_at_now !== true;
    case "require_guards":
      return next.require_guards === true || current.require_guards !== true;
    case "require_email_consent":
      return next.require_email_consent === true || current.require_email_consent !== true;
    case "forecast_errors": {
      const n = next.forecast_errors ?? [];
      return (current.forecast_errors ?? []).every((f) => n.includes(f));
    }
    case "opt_out_wording": {
      // Accepting more wording loosens the opt-out check: a nearer file may only accept less.
      const c = current.opt_out_wording ?? {};
      return Object.entries(next.opt_out_wording ?? {}).every(([language, phrases]) =>
        phrases.every((p) => own(c, language)?.includes(p) === true),
      );
    }
    case "replies": {
      // Stricter: every word and every required answer of the farther rule kept.
      const n = next.replies;
      const c = current.replies;
      const words = (r: typeof n) =>
        new Set(
          Object.entries(r?.opt_out_words ?? {}).flatMap(([lang, ws]) => ws.map((w) => `${lang}:${w}`)),
        );
      const required = (r: typeof n) =>
        new Set((r?.require ?? []).map((q) => `${q.text}\u0000${q.answer_contains ?? ""}`));
      const nw = words(n);
      const nr = required(n);
      return [...words(c)].every((w) => nw.has(w)) && [...required(c)].every((q) => nr.has(q));
    }
    case "require_approvals":
      return approvalsAtLeastAsStrict(next.require_approvals, current.require_approvals);
    case "budgets":
      return budgetsAtLeastAsStrict(next.budgets, current.budgets);
    case "require_help":
      return helpAtLeastAsStrict(next.require_help, current.require_help);
    case "require_suppression_lists":
      return suppressionAtLeastAsStrict(next.require_suppression_lists, current.require_suppression_lists);
  }
}

/**
 * A nearer `jurisdictions` is at least as strict when it keeps every pack the farther one names
 * (pinned or not) and the same kind of messages, or `all` (every rule, whatever its kind).
 */
function jurisdictionsAtLeastAsStrict(
  next: JurisdictionsRule | undefined,
  current: JurisdictionsRule | undefined,
): boolean {
  if (current === undefined) return true;
  if (next === undefined) return false;
  const names = new Set(next.packs.map((p) => parsePackReference(p).name));
  return (
    current.packs.every((p) => names.has(parsePackReference(p).name)) &&
    (next.messages === "all" || next.messages === current.messages)
  );
}

type MutableRules = { -readonly [K in PolicyRuleName]?: PolicyRules[K] };

function setRule(rules: MutableRules, rule: PolicyRuleName, from: PolicyRules): void {
  // One key copied across: the value's type follows the key.
  (rules as Record<string, unknown>)[rule] = from[rule];
}

/**
 * Combines `layers` (farthest first; `--policy` last) and the rules named with `--loosen-policy`.
 * Diagnostics are errors for loosenings not asked for and for locked rules, and a warning for each
 * loosening in force; the policy is built all the same (a refused loosening keeps the stricter value).
 */
export function combinePolicies(
  layers: readonly Policy[],
  loosenFlags: readonly PolicyRuleName[],
): CombinedPolicy {
  const rules: MutableRules = {};
  const ranges: Partial<Record<PolicyRuleName, SourceRange>> = {};
  const setBy = new Map<PolicyRuleName, string>();
  const lockedBy = new Map<PolicyRuleName, { readonly file: string; readonly range?: SourceRange }>();
  const loosened: Loosening[] = [];
  const diagnostics: Diagnostic[] = [];

  const refuse = (layer: Policy, rule: PolicyRuleName, why: "unmarked" | "locked") => {
    const setter = setBy.get(rule) ?? "a policy file farther up";
    const lock = lockedBy.get(rule);
    const previous = ranges[rule];
    const related =
      why === "locked"
        ? lock?.range === undefined
          ? []
          : [{ message: `${lock.file} locks ${rule}`, range: lock.range }]
        : previous === undefined
          ? []
          : [{ message: `${setter} sets ${rule} here`, range: previous }];
    diagnostics.push({
      severity: "error",
      code: why === "locked" ? "policy.locked" : "policy.loosens-ancestor",
      message:
        why === "locked"
          ? `${layer.file} loosens ${rule} (${policyRuleText(rule, layer.rules)}), which ${lock?.file ?? "a farther policy file"} locks at ${policyRuleText(rule, rules)}`
          : `${layer.file} sets ${rule} to ${policyRuleText(rule, layer.rules)}, looser than ${setter}'s ${policyRuleText(rule, rules)}: a nearer policy may add or tighten rules, not loosen them`,
      ...(layer.ranges[rule] === undefined ? {} : { range: layer.ranges[rule] }),
      hint:
        why === "locked"
          ? `keep ${rule} at least as strict as ${lock?.file ?? "the locking file"} sets it, or change that file`
          : `to loosen it on purpose, add \`loosens: [${rule}]\` to ${layer.file} (shown in every plan), or make it at least as strict`,
      ...(related.length === 0 ? {} : { related }),
    });
  };

  for (const layer of layers) {
    for (const rule of POLICY_RULE_NAMES) {
      if (layer.rules[rule] === undefined) continue;
      if (rules[rule] === undefined || atLeastAsStrict(rule, layer.rules, rules)) {
        setRule(rules, rule, layer.rules);
      } else if (lockedBy.has(rule)) {
        refuse(layer, rule, "locked");
        continue;
      } else if (!layer.loosens.includes(rule)) {
        refuse(layer, rule, "unmarked");
        continue;
      } else {
        loosened.push({
          rule,
          from: rules[rule] as NonNullable<Loosening["from"]>,
          to: layer.rules[rule] ?? null,
          by: layer.file,
        });
        setRule(rules, rule, layer.rules);
      }
      const range = layer.ranges[rule];
      if (range !== undefined) ranges[rule] = range;
      setBy.set(rule, layer.file);
    }
    // `loosens:` naming a rule the file does not set turns the farther file's rule off.
    for (const rule of layer.loosens) {
      if (layer.rules[rule] !== undefined || rules[rule] === undefined) continue;
      if (lockedBy.has(rule)) {
        refuse({ ...layer, rules: {} }, rule, "locked");
        continue;
      }
      loosened.push({ rule, from: rules[rule] as NonNullable<Loosening["from"]>, to: null, by: layer.file });
      delete rules[rule];
      delete ranges[rule];
    }
    for (const rule of layer.locked)
      if (!lockedBy.has(rule))
        lockedBy.set(rule, {
          file: layer.file,
          ...(layer.ranges[rule] === undefined ? {} : { range: layer.ranges[rule] }),
        });
  }

  for (const rule of new Set(loosenFlags)) {
    const lock = lockedBy.get(rule);
    if (lock !== undefined) {
      diagnostics.push({
        severity: "error",
        code: "policy.locked",
        message: `${LOOSEN_FLAG} ${rule}: ${lock.file} locks ${rule}, so no flag may turn it off`,
        ...(lock.range === undefined
          ? {}
          : { related: [{ message: `${lock.file} locks ${rule}`, range: lock.range }] }),
        hint: `drop ${LOOSEN_FLAG} ${rule}, or change ${lock.file}`,
      });
      continue;
    }
    if (rules[rule] === undefined) continue;
    loosened.push({ rule, from: rules[rule] as NonNullable<Loosening["from"]>, to: null, by: LOOSEN_FLAG });
    delete rules[rule];
    delete ranges[rule];
  }

  for (const l of loosened)
    diagnostics.push({
      severity: "warning",
      code: "policy.loosened",
      message: `the policy's ${l.rule} is loosened by ${l.by}: ${policyRuleText(l.rule, { [l.rule]: l.from })} -> ${l.to === null ? "off" : policyRuleText(l.rule, { [l.rule]: l.to })}`,
      hint: "a loosening is shown in every plan; remove it to hold the stricter rule again",
    });

  // Capacity combines per brand and channel (src/policy/capacity.ts); it is never loosened on purpose.
  const capacity = combinePolicyCapacity(layers.map((l) => l.capacity));
  diagnostics.push(...capacity.diagnostics);

  const last = layers.at(-1);
  if (last === undefined && loosened.length === 0) return { policy: null, diagnostics };
  return {
    policy: {
      file: last?.file ?? LOOSEN_FLAG,
      files: layers.map((l) => l.file),
      rules,
      ranges,
      loosens: [],
      locked: [...lockedBy.keys()],
      loosened,
      capacity: capacity.capacity,
      // Places only add up: a nearer file may declare more of a list's places, never fewer.
      places: layers.flatMap((l) => l.places ?? []),
    },
    diagnostics,
  };
}
