/**
 * Decides, per request, which injected faults fire. Each rule draws from its own PRNG seeded by
 * (sandbox seed, position, rule text), so the same spec, seed and request sequence for that rule's
 * routes always fire the same way, whatever other traffic does.
 */
import { hash32, seededRandom } from "../ids.js";
import { type FaultAction, type FaultRule, parseFaultSpec } from "./spec.js";

interface LiveRule {
  readonly rule: FaultRule;
  readonly random: () => number;
  fired: number;
  burstLeft: number;
}

/** Faults for one request. `before`: answer instead of handling; `after`: fail after committing. */
export interface FaultDecision {
  readonly before: Extract<FaultAction, { kind: "status" | "reset" | "burst-429" }> | null;
  readonly latency: { readonly virtualMs: number; readonly realMs: number };
  readonly after: Extract<FaultAction, { kind: "commit-then-fail" }> | null;
  /** Texts of the rules that fired (for the request log). */
  readonly fired: readonly string[];
}

/** The decision of a request when no rule is set (most requests): nothing fires. */
const NO_FAULTS: FaultDecision = {
  before: null,
  after: null,
  latency: { virtualMs: 0, realMs: 0 },
  fired: [],
};

export class FaultEngine {
  private rules: LiveRule[] = [];

  constructor(private readonly seed: number) {}

  /** Adds the rules of a spec; returns an error message instead when the spec does not parse. */
  add(spec: string): string | undefined {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) return parsed.message;
    for (const rule of parsed.rules) {
      const position = this.rules.length;
      this.rules.push({
        rule,
        random: seededRandom(hash32(`${this.seed}|${position}|${rule.text}`)),
        fired: 0,
        burstLeft: 0,
      });
    }
    return undefined;
  }

  clear(): void {
    this.rules = [];
  }

  list(): {
    rule: string;
    method: string;
    template: string;
    action: FaultAction;
    p: number;
    n: number | null;
    fired: number;
  }[] {
    return this.rules.map((r) => ({
      rule: r.rule.text,
      method: r.rule.method,
      template: r.rule.template,
      action: r.rule.action,
      p: r.rule.probability,
      n: r.rule.maxTimes,
      fired: r.fired,
    }));
  }

  /** The faults of one request; `organization`: the organization of the request's key. */
  decide(method: string, template: string, organization: string | null = null): FaultDecision {
    if (this.rules.length === 0) return NO_FAULTS;
    let before: FaultDecision["before"] = null;
    let after: FaultDecision["after"] = null;
    let virtualMs = 0;
    let realMs = 0;
    const fired: string[] = [];
    for (const live of this.rules) {
      const { rule } = live;
      if (rule.method !== "*" && rule.method !== method) continue;
      if (rule.template !== "*" && rule.template !== template) continue;
      if (rule.organization !== null && rule.organization !== organization) continue;
      if (!this.fires(live)) continue;
      fired.push(rule.text);
      const action = rule.action;
      switch (action.kind) {
        case "status":
        case "reset":
        case "burst-429":
          before ??= action;
          break;
        case "commit-then-fail":
          after ??= action;
          break;
        case "latency":
          if (action.clock === "virtual") virtualMs += action.ms;
          else realMs += action.ms;
          break;
      }
    }
    return { before, after, latency: { virtualMs, realMs }, fired };
  }

  private fires(live: LiveRule): boolean {
    if (live.burstLeft > 0) {
      live.burstLeft -= 1;
      return true;
    }
    if (live.rule.maxTimes !== null && live.fired >= live.rule.maxTimes) return false;
    const draw = live.random();
    if (draw >= live.rule.probability) return false;
    live.fired += 1;
    if (live.rule.action.kind === "burst-429") live.burstLeft = live.rule.action.count - 1;
    return true;
  }
}
