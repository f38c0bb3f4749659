/**
 * The flags `webhooks listen` and `webhooks verify` share, turned into what the core takes: the
 * signing secrets, read only from the environment variables `--secret-env` names (a secret is never
 * a flag value, so it stays out of shell history and process lists, and is never printed), and the
 * `--events` filter, checked against the contract's event kinds.
 */
import { isEnvName } from "../../src/api/config.js";
import { EVENT_KINDS } from "../../src/contract/limits.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { didYouMean } from "../../src/text/did-you-mean.js";
import type { WebhookSecret } from "../../src/webhooks/types.js";
import { DEFAULT_SECRET_ENV } from "../flags/flag-defaults.js";
import type { Io } from "../output/io.js";

/** `--secret-env` given something that is not a variable's name: perhaps the secret itself, so never shown. */
const notAName: Diagnostic = {
  severity: "error",
  code: "webhooks.no-secret",
  message:
    "--secret-env takes the NAME of an environment variable, and what was given is not one (it is not shown, in case it is a signing secret)",
  hint: `export the endpoint's signing secret in a variable (default ${DEFAULT_SECRET_ENV}) and pass that variable's name; a secret never goes on the command line`,
};

/**
 * The secrets of `names` (default: {@link DEFAULT_SECRET_ENV}), in the order given, duplicates
 * named once. Invariant: an ok list is not empty and every value is non-empty.
 */
export function secretsFromEnv(
  names: readonly string[] | undefined,
  io: Io,
): { ok: true; secrets: WebhookSecret[] } | { ok: false; diagnostics: Diagnostic[] } {
  const wanted = [...new Set(names === undefined || names.length === 0 ? [DEFAULT_SECRET_ENV] : names)];
  const secrets: WebhookSecret[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of wanted) {
    if (!isEnvName(name)) {
      diagnostics.push(notAName);
      continue;
    }
    const value = io.env[name];
    if (value === undefined || value === "")
      diagnostics.push({
        severity: "error",
        code: "webhooks.no-secret",
        message: `The environment variable ${name} ${value === undefined ? "is not set" : "is empty"}`,
        hint: `Put the endpoint's signing secret in ${name} (the dashboard shows it once, under Admin, Webhooks), or name another variable with --secret-env`,
      });
    else secrets.push({ name, value });
  }
  return diagnostics.length > 0 ? { ok: false, diagnostics } : { ok: true, secrets };
}

/** `--events a,b` (repeatable) as a set of kinds; null when not given (every kind). */
export function eventKinds(
  given: readonly string[] | undefined,
): { ok: true; kinds: ReadonlySet<string> | null } | { ok: false; diagnostics: Diagnostic[] } {
  if (given === undefined) return { ok: true, kinds: null };
  const words = given
    .flatMap((g) => g.split(","))
    .map((w) => w.trim())
    .filter((w) => w !== "");
  const known: readonly string[] = EVENT_KINDS;
  const diagnostics: Diagnostic[] = words
    .filter((w) => !known.includes(w))
    .map((w) => {
      const near = didYouMean(w, known);
      return {
        severity: "error",
        code: "webhooks.unknown-event-kind",
        message: `--events names ${JSON.stringify(w)}, which is not an event kind of the API`,
        hint: near === undefined ? `The kinds are ${known.join(", ")}` : `did you mean ${near}?`,
      };
    });
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  if (words.length === 0)
    return {
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "webhooks.unknown-event-kind",
          message: "--events names no kind",
          hint: `Give one or more of ${known.join(", ")}, separated by commas`,
        },
      ],
    };
  return { ok: true, kinds: new Set(words) };
}
