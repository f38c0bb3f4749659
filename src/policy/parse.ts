/**
 * Policy file text -> `Policy` or diagnostics (YAML errors and schema violations, each at its
 * position). Pure: the caller reads the file.
 */
import { isMap, LineCounter, parseDocument } from "yaml";
import { apiKeysInFile } from "../campaign/api-key-in-file.js";
import type { ChannelSpec } from "../campaign/model.js";
import { fileStart, rangeAt, type SourceText } from "../campaign/source-range.js";
import { findPath, pointerSegments } from "../campaign/yaml-path.js";
import { walkDocument } from "../campaign/yaml-walk.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { nameMap } from "../text/names.js";
import { resolveAllowedSigners } from "./approvals-rule.js";
import {
  type CapacityEntry,
  POLICY_RULE_NAMES,
  type Policy,
  type PolicyCapacity,
  type PolicyRuleName,
  type PolicyRules,
} from "./model.js";
import { packProblems, placesOf } from "./places.js";
import { validatePolicyData } from "./schema.js";

export type ParsedPolicy =
  | { readonly ok: true; readonly policy: Policy }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const HINT = "see schemas/policy.schema.json and docs/policy.md for the rules and their values";

/** The walk's findings a policy file is refused for (the others are the parser's errors here). */
const NOT_PLAIN: ReadonlySet<string> = new Set(["campaign.yaml-merge-key", "campaign.yaml-tag"]);

export function parsePolicy(file: string, text: string): ParsedPolicy {
  const lineCounter = new LineCounter();
  // `stringKeys`: every key of a policy is a name, so a map, a list or a tagged value written as a
  // key is an error at the key (NON_STRING_KEY), not a stringified key found unknown at 1:1.
  const doc = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    stringKeys: true,
    logLevel: "error",
  });
  const source: SourceText = { file, text, lineCounter };
  const keys = apiKeysInFile(source, "policy.api-key-in-file");
  if (keys.length > 0) return { ok: false, diagnostics: keys };
  if (doc.errors.length > 0)
    return {
      ok: false,
      diagnostics: doc.errors.map((e) => ({
        severity: "error",
        code: "policy.file-invalid",
        message:
          e.code === "NON_STRING_KEY"
            ? "the policy file is not valid YAML: this mapping key is a map, a list or a tagged value, and keys are names"
            : `the policy file is not valid YAML: ${e.message.split("\n")[0] ?? e.code}`,
        range: rangeAt(source, e.pos[0], e.pos[1]),
        hint: HINT,
      })),
    };
  // A merge key or a value of a tag's own type (`rules: !!omap [...]` reads as no rules at all):
  // refused as in a campaign file, by the same walk (yaml-walk.ts).
  const odd = walkDocument(source, doc).problems.filter((d) => NOT_PLAIN.has(d.code));
  if (odd.length > 0)
    return {
      ok: false,
      diagnostics: odd.map((d) => ({
        ...d,
        code: "policy.file-invalid",
        message: `the policy file: ${d.message}`,
      })),
    };
  const data: unknown = doc.toJS();
  const errors = validatePolicyData(data);
  if (errors.length > 0)
    return {
      ok: false,
      diagnostics: errors.map((e) => {
        const extraKey =
          e.keyword === "additionalProperties"
            ? String((e.params as { additionalProperty?: unknown }).additionalProperty)
            : undefined;
        const path = pointerSegments(e.instancePath);
        const extra = extraKey === undefined ? "" : ` '${extraKey}'`;
        // An unknown rule is pointed at by its key; any other problem by the value.
        const hit = findPath(doc, doc.contents, extraKey === undefined ? path : [...path, extraKey]);
        const span = extraKey === undefined ? (hit.value ?? hit.key) : (hit.key ?? hit.value);
        return {
          severity: "error",
          code: "policy.file-invalid",
          message: `${path.length === 0 ? "the policy" : path.join(".")} ${e.message ?? "is invalid"}${extra}`,
          range: span ? rangeAt(source, span[0], span[1]) : fileStart(file),
          hint: HINT,
        };
      }),
    };
  const written = ((data as { rules?: PolicyRules }).rules ?? {}) as PolicyRules;
  // The allowed-signers file is written relative to this file: spelled from the run's directory.
  const rules: PolicyRules =
    written.require_approvals === undefined
      ? written
      : { ...written, require_approvals: resolveAllowedSigners(written.require_approvals, file) };
  const ranges: Partial<Record<PolicyRuleName, ReturnType<typeof rangeAt>>> = {};
  const rulesNode = findPath(doc, doc.contents, ["rules"]).node;
  if (isMap(rulesNode))
    for (const name of POLICY_RULE_NAMES) {
      if (rules[name] === undefined) continue;
      const hit = findPath(doc, rulesNode, [name]);
      const span = hit.key ?? hit.value;
      ranges[name] = span ? rangeAt(source, span[0], span[1]) : fileStart(file);
    }
  const capacity = capacityOf(
    data as { capacity?: RawCapacity },
    (path) => {
      const hit = findPath(doc, doc.contents, ["capacity", ...path]);
      const span = hit.key ?? hit.value;
      return span ? rangeAt(source, span[0], span[1]) : fileStart(file);
    },
    file,
  );
  const locateKey = (path: readonly (string | number)[]) => {
    const hit = findPath(doc, doc.contents, path);
    const span = hit.key ?? hit.value;
    return span ? rangeAt(source, span[0], span[1]) : fileStart(file);
  };
  const places = placesOf(data as Parameters<typeof placesOf>[0], locateKey, file);
  const problems = [...places.diagnostics, ...packProblems(rules.jurisdictions, locateKey)];
  if (problems.length > 0) return { ok: false, diagnostics: problems };
  const named = (key: "loosens" | "locked") => [
    ...new Set((data as Record<string, PolicyRuleName[] | undefined>)[key] ?? []),
  ];
  return {
    ok: true,
    policy: {
      file,
      files: [file],
      rules,
      ranges,
      loosens: named("loosens"),
      locked: named("locked"),
      loosened: [],
      capacity,
      ...(places.places.length === 0 ? {} : { places: places.places }),
    },
  };
}

/** The policy's `capacity:` as the schema allows it. */
interface RawCapacity {
  readonly brands?: Readonly<Record<string, { readonly daily_cap: number | "none" }>>;
  readonly throughput?: Readonly<Partial<Record<ChannelSpec, number>>>;
}

/** The declared capacity, each value with the place its key is written. */
function capacityOf(
  data: { readonly capacity?: RawCapacity },
  locate: (path: readonly string[]) => ReturnType<typeof rangeAt>,
  file: string,
): PolicyCapacity {
  const raw = data.capacity ?? {};
  const brands = nameMap<CapacityEntry<number | null>>();
  for (const [brand, b] of Object.entries(raw.brands ?? {}))
    brands[brand] = {
      value: b.daily_cap === "none" ? null : b.daily_cap,
      file,
      range: locate(["brands", brand, "daily_cap"]),
    };
  const throughput: Partial<Record<ChannelSpec, CapacityEntry<number>>> = {};
  for (const [channel, value] of Object.entries(raw.throughput ?? {}) as [ChannelSpec, number][])
    throughput[channel] = { value, file, range: locate(["throughput", channel]) };
  return { brands, throughput };
}
