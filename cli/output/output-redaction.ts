/**
 * Every byte the CLI puts out goes through the one redactor (src/text/redact.ts) of the secrets
 * this run can know: the API key (`CAMPAIGNCTL_API_KEY`, or the variable `--api-key-env` names), the
 * results store's database password (in `CAMPAIGNCTL_RESULTS_DATABASE_URL`), the webhook signing
 * secrets (`CAMPAIGNCTL_WEBHOOK_SECRET`, or those `--secret-env` names), and the GitHub token apply
 * reads pull request reviews with (`GITHUB_TOKEN`). So no
 * output (stdout, stderr, files written through `saveFiles`, the journal) shows a trace of them,
 * whatever a server echoed back: any case, only a part, split over lines.
 */
import { API_KEY_ENV, isEnvName } from "../../src/api/config.js";
import { organizationKeys } from "../../src/api/organization-keys.js";
import { maskKeyShaped } from "../../src/contract/key-shaped.js";
import { createRedactor, type Redactor } from "../../src/text/redact.js";
import type { Io } from "./io.js";

/** The webhook secret's default variable (cli/register/webhooks.ts says the same; kept here to load nothing). */
const WEBHOOK_SECRET_ENV = "CAMPAIGNCTL_WEBHOOK_SECRET";

/** The workflow's token, read by `apply PLANFILE` in GitHub Actions (cli/adapters/github-reviews.ts). */
const GITHUB_TOKEN_ENV = "GITHUB_TOKEN";

/**
 * The results store's PostgreSQL connection string (cli/adapters/results-postgres.ts says the same;
 * kept here to load nothing): its password is a secret. The rest of it (user, host, database) is not
 * masked: every run of 8 characters of a secret is, and a host or database name such as
 * `campaignctl` would mask the tool's own name everywhere. No message of ours shows the string.
 */
const RESULTS_DATABASE_URL_ENV = "CAMPAIGNCTL_RESULTS_DATABASE_URL";

/**
 * The passwords of a connection string (`postgres://user:password@host/db`, `?password=`), if any.
 * A userinfo password with a `%` that is no escape (`ab%zz`) is masked as written: the driver
 * connects with it so, and decoding it would throw and mask nothing.
 */
function urlPasswords(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    const parsed = new URL(url);
    const inQuery = parsed.searchParams.get("password");
    return [decodedOrAsWritten(parsed.password), inQuery ?? ""].filter((p) => p !== "");
  } catch {
    return [];
  }
}

function decodedOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The flags whose value names an environment variable holding a secret. */
const SECRET_ENV_FLAGS = ["--api-key-env", "--secret-env"] as const;

/** The environment variables `argv` reads secrets from (the defaults included). */
export function secretEnvNames(argv: readonly string[]): string[] {
  const names = new Set<string>([API_KEY_ENV, WEBHOOK_SECRET_ENV, GITHUB_TOKEN_ENV]);
  argv.forEach((arg, i) => {
    for (const flag of SECRET_ENV_FLAGS) {
      if (arg === flag && argv[i + 1] !== undefined) names.add(argv[i + 1] as string);
      else if (arg.startsWith(`${flag}=`)) names.add(arg.slice(flag.length + 1));
    }
  });
  return [...names];
}

/**
 * The redactor of the secrets `argv` and `env` name, followed by the one mask of key-shaped text
 * (src/contract/key-shaped.ts): a key the run was not given (in a live message's text, an answer,
 * a contact's reply) is shown by no output either, as `*`. Only `campaignctl sandbox` shows
 * key-shaped text: it prints its fixture's keys, the keys of a local emulator, on purpose.
 */
export function redactorFor(argv: readonly string[], env: Io["env"]): Redactor {
  const secrets = secretsRedactor(argv, env);
  if (commandOf(argv) === "sandbox") return secrets;
  // Key-shaped runs first: the redactor masks the prefix every key shares (`pc_live_`, a run of 8 of
  // the run's own key) and would leave another key's tail with no prefix to be found by.
  return (text) => secrets(maskKeyShaped(text));
}

/** The command `argv` runs: its first word that is no option. */
function commandOf(argv: readonly string[]): string | undefined {
  return argv.find((arg) => !arg.startsWith("-"));
}

function secretsRedactor(argv: readonly string[], env: Io["env"]): Redactor {
  const names = secretEnvNames(argv);
  return createRedactor([
    ...names.map((name) => env[name]),
    // A value of --api-key-env or --secret-env that is no variable's name may be the secret itself,
    // pasted where its name goes: it is masked like one.
    ...names.filter((name) => !isEnvName(name)),
    // Keys per organization (CAMPAIGNCTL_API_KEY_<SLUG>) are secrets too, and so is any value of a
    // variable that only looks like one (`CAMPAIGNCTL_API_KEY_adams`, never used as a key).
    ...[...organizationKeys(env).values()].map((k) => k.key),
    ...Object.keys(env)
      .filter((name) => name.toUpperCase().startsWith(API_KEY_ENV))
      .map((name) => env[name]),
    ...urlPasswords(env[RESULTS_DATABASE_URL_ENV]),
  ]);
}

/** `io` with stdout and stderr redacted, and its `redact` set for files. */
export function redactingIo(io: Io, redact: Redactor): Io {
  return {
    ...io,
    stdout: (text) => io.stdout(redact(text)),
    stderr: (text) => io.stderr(redact(text)),
    redact,
  };
}
