/**
 * Client configuration from the environment and the command line: the API key and the base URL.
 * Pure functions: the environment is passed in, problems come back as Diagnostics, nothing throws.
 */
import { PRODUCTION_BASE_URL } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** Default environment variable holding the API key. */
export const API_KEY_ENV = "CAMPAIGNCTL_API_KEY";
/** Environment variable that overrides the production base URL (a `--base-url` flag wins over it). */
export const BASE_URL_ENV = "CAMPAIGNCTL_BASE_URL";

/** Either a value or the one Diagnostic explaining why there is none. */
export type Resolved<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** An environment as `process.env` looks: names to optional strings. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the API key from `env[varName]`. Invariant: the returned Diagnostic names the variable and
 * never contains any value read from the environment. Surrounding whitespace is trimmed.
 */
export function resolveApiKey(env: Env, varName: string = API_KEY_ENV): Resolved<string> {
  if (!isEnvName(varName))
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "api.bad-key-env",
        message:
          "--api-key-env takes the NAME of an environment variable, and what was given is not one (it is not shown, in case it is a key)",
        hint: `export the key in a variable (default ${API_KEY_ENV}) and pass that variable's name; a key never goes on the command line`,
      },
    };
  const raw = env[varName];
  const key = raw?.trim() ?? "";
  if (key === "") {
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "api.no-key",
        message: `No API key: the environment variable ${varName} is ${raw === undefined ? "not set" : "empty"}`,
        hint: `Create a key in the dashboard (Admin, API) and export it as ${varName}; keys are never read from files or flags`,
      },
    };
  }
  return { ok: true, value: key };
}

/**
 * A portable environment variable name that does not look like a secret: an API key (keys carry a
 * `live_` prefix, see the contract's Authentication section) or a webhook signing secret (`whsec_`,
 * as the dashboard and the sandbox issue them). The one test of what `--api-key-env` and
 * `--secret-env` were given: a value that fails it is never shown, and is masked in all output.
 */
export function isEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name) && !/live_|^whsec_/i.test(name);
}

/** Where the base URL came from, for messages. */
export type BaseUrlSource = "flag" | "env" | "default";

/**
 * Picks the base URL: the `--base-url` value, else `env.CAMPAIGNCTL_BASE_URL`, else production.
 * Then applies {@link checkBaseUrl}. Invariant: an ok value is an absolute http(s) URL without
 * query, fragment, credentials or trailing slash.
 */
export function resolveBaseUrl(flag: string | undefined, env: Env): Resolved<string> {
  const fromFlag = flag?.trim();
  if (fromFlag) return checkBaseUrl(fromFlag, "flag");
  const fromEnv = env[BASE_URL_ENV]?.trim();
  if (fromEnv) return checkBaseUrl(fromEnv, "env");
  return checkBaseUrl(PRODUCTION_BASE_URL, "default");
}

/** True for 127.0.0.0/8, ::1 and `localhost` (the only hosts plain http may reach). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return Number(v4[1]) === 127 && v4.slice(2).every((part) => Number(part) <= 255);
  const mapped = /^::ffff:(\d{1,3})\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (mapped) return Number(mapped[1]) === 127;
  return false;
}

function describe(source: BaseUrlSource): string {
  switch (source) {
    case "flag":
      return "--base-url";
    case "env":
      return BASE_URL_ENV;
    case "default":
      return "the default base URL";
  }
}

/** Validates a base URL: well-formed (`api.bad-url`) and https unless loopback (`api.insecure-url`). */
export function checkBaseUrl(text: string, source: BaseUrlSource = "flag"): Resolved<string> {
  const where = describe(source);
  const bad = (message: string, hint: string): Resolved<string> => ({
    ok: false,
    diagnostic: { severity: "error", code: "api.bad-url", message, hint },
  });
  if (!text.includes("://") && !text.includes("@") && URL.canParse(`https://${text}`)) {
    // `api.example.com/v1`, `localhost:4011/v1`: the scheme left off (the latter parses, as scheme
    // `localhost:`). Shown only when it holds no user:password@.
    const host = new URL(`https://${text}`).hostname;
    const scheme = isLoopbackHost(host) ? "http" : "https";
    return bad(
      `The API base URL from ${where} (${text}) has no scheme: it must start with ${scheme}://`,
      `Write ${scheme}://${text}${isLoopbackHost(host) ? " (plain http only to this machine, as `campaignctl sandbox` prints it)" : ""}`,
    );
  }
  if (!URL.canParse(text)) {
    return bad(
      `The API base URL from ${where} is not a valid URL`,
      "Give an absolute URL such as https://api.politicalcomms.com/v1",
    );
  }
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return bad(
      `The API base URL from ${where} uses ${url.protocol.slice(0, -1)}, not http or https`,
      "Use an https:// URL",
    );
  }
  if (url.username !== "" || url.password !== "") {
    return bad(
      `The API base URL from ${where} embeds credentials`,
      "Remove user:password@; the key comes from the environment",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    return bad(
      `The API base URL from ${where} has a query or fragment`,
      "Give only scheme, host, port and path prefix",
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "api.insecure-url",
        message: `The API base URL from ${where} uses plain http to ${url.hostname}, which would expose the API key`,
        hint: "Use https://, or http:// only to a loopback address (127.0.0.1, ::1, localhost) such as the sandbox",
      },
    };
  }
  // A bare origin is never the API: every route is under its version prefix (`/v1`). Without it the
  // first read is a 404 that would read like a missing organization.
  if (url.pathname.replace(/\/+$/, "") === "") {
    return bad(
      `The API base URL from ${where} (${url.origin}) lacks the /v1 path: the API's routes are under ${url.origin}/v1`,
      `Add /v1: ${url.origin}/v1${source === "flag" ? " (--base-url takes the URL the routes start with, as `campaignctl sandbox` prints it)" : ""}`,
    );
  }
  return { ok: true, value: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}
