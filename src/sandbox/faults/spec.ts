/**
 * The fault spec language, shared by `--faults` and `POST /_sandbox/faults`:
 *
 *   SPEC   := RULE (";" RULE)*
 *   RULE   := TARGET ":" ACTION OPTION*
 *   TARGET := "*" | METHOD " " TEMPLATE        (TEMPLATE is a route template or "*")
 *   ACTION := status(CODE[, retry-after=S]) | commit-then-fail(CODE | drop)
 *           | latency(DURATION[, real]) | reset | burst-429(N[, retry-after=S])
 *   OPTION := p=PROBABILITY (default 1) | n=MAX_TIMES (default unlimited)
 *           | org=ORGANIZATION_ID (only requests made with a key of that organization)
 *   DURATION := INTEGER("ms" | "s" | "m")?     (bare integers are milliseconds)
 *
 * Example: `POST /projects/{id}/schedule: commit-then-fail(500) p=0.3; *: latency(200ms) p=0.1`.
 */

export type FaultAction =
  | { readonly kind: "status"; readonly status: number; readonly retryAfter: number }
  | { readonly kind: "commit-then-fail"; readonly status: number | "drop" }
  | { readonly kind: "latency"; readonly ms: number; readonly clock: "virtual" | "real" }
  | { readonly kind: "reset" }
  | { readonly kind: "burst-429"; readonly count: number; readonly retryAfter: number };

/** One parsed rule. Invariant: 0 <= probability <= 1; maxTimes null or >= 1. */
export interface FaultRule {
  readonly text: string;
  readonly method: string;
  readonly template: string;
  readonly action: FaultAction;
  readonly probability: number;
  readonly maxTimes: number | null;
  /** Only requests whose key belongs to this organization; null: any key. */
  readonly organization: string | null;
}

export type FaultParse =
  | { readonly ok: true; readonly rules: FaultRule[] }
  | { readonly ok: false; readonly message: string };

const METHODS = new Set(["GET", "POST", "PATCH", "DELETE", "*"]);

export function parseFaultSpec(spec: string): FaultParse {
  const rules: FaultRule[] = [];
  for (const raw of spec.split(";")) {
    const text = raw.trim();
    if (text === "") continue;
    const rule = parseRule(text);
    if (typeof rule === "string") return { ok: false, message: `fault rule "${text}": ${rule}` };
    rules.push(rule);
  }
  return { ok: true, rules };
}

function parseRule(text: string): FaultRule | string {
  const colon = text.indexOf(":");
  if (colon < 0) return 'expected "TARGET: ACTION"';
  const target = text.slice(0, colon).trim();
  let method = "*";
  let template = "*";
  if (target !== "*") {
    const [m = "", t, ...rest] = target.split(/\s+/);
    if (!METHODS.has(m.toUpperCase()) || t === undefined || rest.length > 0)
      return 'target must be "*" or "METHOD /route/{template}"';
    method = m.toUpperCase();
    template = t === "*" ? "*" : t.replace(/^\/v1(?=\/)/, "");
  }
  const rest = text.slice(colon + 1).trim();
  const match = /^([a-z0-9-]+)(?:\(([^)]*)\))?((?:\s+[a-z]+=\S+)*)\s*$/.exec(rest);
  if (!match) return "expected ACTION(ARGS) [p=P] [n=N]";
  const action = parseAction(
    match[1] ?? "",
    (match[2] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  );
  if (typeof action === "string") return action;
  let probability = 1;
  let maxTimes: number | null = null;
  let organization: string | null = null;
  for (const option of (match[3] ?? "")
    .trim()
    .split(/\s+/)
    .filter((s) => s !== "")) {
    const [name, value = ""] = option.split("=");
    if (name === "p") {
      probability = Number(value);
      if (!(probability >= 0 && probability <= 1)) return "p must be a probability between 0 and 1";
    } else if (name === "n") {
      maxTimes = Number(value);
      if (!Number.isInteger(maxTimes) || maxTimes < 1) return "n must be a positive integer";
    } else if (name === "org") {
      if (value === "") return "org needs an organization id";
      organization = value;
    } else return `unknown option "${name}" (p=, n=, org=)`;
  }
  return { text, method, template, action, probability, maxTimes, organization };
}

function parseAction(name: string, args: string[]): FaultAction | string {
  const retryAfter = (): number | string => {
    const opt = args.find((a) => a.startsWith("retry-after="));
    if (opt === undefined) return 1;
    const s = Number(opt.slice("retry-after=".length));
    return Number.isInteger(s) && s >= 0 ? s : "retry-after must be whole seconds";
  };
  switch (name) {
    case "status": {
      const status = Number(args[0]);
      const ra = retryAfter();
      if (!Number.isInteger(status) || status < 400 || status > 599)
        return "status(CODE) needs a code from 400 to 599";
      return typeof ra === "string" ? ra : { kind: "status", status, retryAfter: ra };
    }
    case "commit-then-fail": {
      const arg = args[0] ?? "500";
      if (arg === "drop") return { kind: "commit-then-fail", status: "drop" };
      const status = Number(arg);
      if (!Number.isInteger(status) || status < 500 || status > 599)
        return "commit-then-fail needs a 5xx code or drop";
      // The contract's 503 (SEND_ENQUEUE_FAILED) promises that nothing happened; a change that took
      // effect cannot answer it, or the emulator would lie about the contract it emulates.
      if (status === 503)
        return "commit-then-fail(503) contradicts the contract (503 means nothing happened): use status(503)";
      return { kind: "commit-then-fail", status };
    }
    case "latency": {
      const ms = parseDuration(args[0] ?? "");
      if (ms === undefined) return "latency needs a duration such as 200ms, 2s or 1m";
      if (args[1] !== undefined && args[1] !== "real" && args[1] !== "virtual")
        return 'latency clock must be "real" or "virtual"';
      return { kind: "latency", ms, clock: args[1] === "real" ? "real" : "virtual" };
    }
    case "reset":
      return args.length === 0 ? { kind: "reset" } : "reset takes no arguments";
    case "burst-429": {
      const count = Number(args[0]);
      const ra = retryAfter();
      if (!Number.isInteger(count) || count < 1) return "burst-429(N) needs a positive count";
      return typeof ra === "string" ? ra : { kind: "burst-429", count, retryAfter: ra };
    }
    default:
      return `unknown action "${name}" (status, commit-then-fail, latency, reset, burst-429)`;
  }
}

function parseDuration(text: string): number | undefined {
  const m = /^(\d+)(ms|s|m)?$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === "s" ? n * 1000 : m[2] === "m" ? n * 60_000 : n;
}
