/**
 * Reads a pull request and its reviews from the GitHub API with the workflow's token (issue 37
 * point 6): `GET /repos/{owner}/{repo}/pulls/{n}` and `GET /repos/{owner}/{repo}/pulls/{n}/reviews`
 * (every page). The token comes from `GITHUB_TOKEN` only and is sent only over https (plain http
 * only to a loopback address, a test's stand-in), never followed through a redirect, and never
 * written anywhere: messages name the variable, not its value. A read that gets no answer, a 5xx or
 * a 429 is tried again (three attempts). HTTP and the wait between attempts are passed in.
 */
import { isLoopbackHost } from "../../src/api/config.js";
import type { GithubUser, PullRequestFacts, ReviewFacts } from "../../src/approvals/github.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type Env, eventPullRequest } from "./github-event.js";

/** Where the pull request lives and how to read it. Invariant: `apiUrl` has no trailing slash. */
export interface GithubPlace {
  readonly apiUrl: string;
  readonly repository: string;
  readonly pullRequest: number;
  readonly token: string;
}

/** The pull request, who was asked to review it, and its reviews in the API's order. */
export interface PullRequestRead {
  readonly pr: PullRequestFacts;
  readonly requested: readonly string[];
  readonly reviews: readonly ReviewFacts[];
}

type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

const TOKEN_HINT =
  "give the apply step the workflow's token as GITHUB_TOKEN (github.token), with permissions: pull-requests: read (docs/ci.md)";

function unavailable(message: string, hint: string = TOKEN_HINT): { ok: false; diagnostic: Diagnostic } {
  return { ok: false, diagnostic: { severity: "error", code: "apply.approvals-unavailable", message, hint } };
}

/**
 * The pull request to read: `GITHUB_API_URL` (default https://api.github.com; https, or http to
 * loopback), `GITHUB_REPOSITORY`, the token, and the number (`--pull-request`, else the event's).
 */
export function githubPlace(env: Env, pullRequest: number | undefined): Result<GithubPlace> {
  const token = env.GITHUB_TOKEN;
  if (token === undefined || token === "")
    return unavailable("GITHUB_TOKEN is not set, so the pull request's reviews cannot be read");
  const repository = env.GITHUB_REPOSITORY ?? "";
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository))
    return unavailable(
      `GITHUB_REPOSITORY (${JSON.stringify(repository)}) is not owner/name`,
      "run in GitHub Actions, which sets it",
    );
  const text = env.GITHUB_API_URL ?? "https://api.github.com";
  if (!URL.canParse(text))
    return unavailable(`GITHUB_API_URL (${text}) is not a URL`, "leave it as GitHub Actions sets it");
  const url = new URL(text);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    return unavailable(
      `GITHUB_API_URL (${url.origin}) is not https, and the token would travel in the clear`,
      "use https:// (plain http only to a loopback address)",
    );
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "")
    return unavailable(
      "GITHUB_API_URL embeds credentials, a query or a fragment",
      "give the API's base URL only",
    );
  const number = pullRequest ?? eventPullRequest(env)?.number;
  if (number === undefined)
    return unavailable(
      "no pull request to read approvals from: this event carries none and --pull-request was not given",
      "pass --pull-request N (the merged pull request; the shipped campaign-apply.yml finds it), or run on a pull_request event",
    );
  return {
    ok: true,
    value: { apiUrl: url.href.replace(/\/+$/, ""), repository, pullRequest: number, token },
  };
}

/** Most pages of reviews read (100 a page); a pull request with more is refused, never counted from a part. */
const MAX_PAGES = 30;

export async function readPullRequest(
  place: GithubPlace,
  fetcher: typeof fetch = fetch,
  pause: Pause = realPause,
): Promise<Result<PullRequestRead>> {
  const base = `${place.apiUrl}/repos/${place.repository}/pulls/${place.pullRequest}`;
  const prJson = await getJson(base, place, fetcher, pause);
  if (!prJson.ok) return prJson;
  const pr = pullRequestFacts(prJson.value);
  if (pr === undefined)
    return unavailable(`${describe(place)}: the API's answer is not a pull request`, "check GITHUB_API_URL");
  const reviews: ReviewFacts[] = [];
  let complete = false;
  for (let page = 1; page <= MAX_PAGES && !complete; page++) {
    const got = await getJson(`${base}/reviews?per_page=100&page=${page}`, place, fetcher, pause);
    if (!got.ok) return got;
    if (!Array.isArray(got.value))
      return unavailable(
        `${describe(place)}: the API's answer is not a list of reviews`,
        "check GITHUB_API_URL",
      );
    for (const item of got.value) {
      const review = reviewFacts(item);
      if (review === undefined)
        return unavailable(
          `${describe(place)}: a review in the API's answer is not readable`,
          "check GITHUB_API_URL",
        );
      reviews.push(review);
    }
    complete = got.value.length < 100;
  }
  // A review left unread could be a reviewer's last (a request for changes withdrawing an approval).
  if (!complete)
    return unavailable(
      `${describe(place)} has ${MAX_PAGES * 100} reviews or more, and not all of them could be read, so its approvals cannot be counted`,
      "open a new pull request with the same commits and have it reviewed there",
    );
  const requested =
    isObject(prJson.value) && Array.isArray(prJson.value.requested_reviewers)
      ? prJson.value.requested_reviewers.flatMap((u) =>
          isObject(u) && typeof u.login === "string" ? [`@${u.login}`] : [],
        )
      : [];
  return { ok: true, value: { pr, requested, reviews } };
}

function describe(place: GithubPlace): string {
  return `pull request #${place.pullRequest} of ${place.repository}`;
}

/**
 * Attempts of one GitHub read in all: no answer, a 5xx or a 429 is tried again (after 1 s, then
 * 2 s), since one failed read refuses the plan or holds a schedule a run has waited an hour for.
 */
const READ_ATTEMPTS = 3;
const FIRST_BACKOFF_MS = 1_000;

/** Waits `ms` between two attempts of a read (a real timer; tests pass their virtual clock's). */
export type Pause = (ms: number) => Promise<void>;

const realPause: Pause = (ms) => new Promise((done) => setTimeout(done, ms));

async function getJson(
  url: string,
  place: GithubPlace,
  fetcher: typeof fetch,
  pause: Pause,
): Promise<Result<unknown>> {
  for (let attempt = 1; ; attempt++) {
    const got = await getOnce(url, place, fetcher);
    if (got.ok || !("transient" in got) || attempt >= READ_ATTEMPTS) return got;
    await pause(FIRST_BACKOFF_MS * 2 ** (attempt - 1));
  }
}

/** One GET; `transient` when trying again may answer (no answer, a 5xx, a 429). */
async function getOnce(
  url: string,
  place: GithubPlace,
  fetcher: typeof fetch,
): Promise<
  Result<unknown> | { readonly ok: false; readonly diagnostic: Diagnostic; readonly transient: true }
> {
  const again = (message: string, hint: string) => ({
    ...unavailable(message, hint),
    transient: true as const,
  });
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${place.token}`,
        "x-github-api-version": "2022-11-28",
        "user-agent": "campaignctl",
      },
      redirect: "error",
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return again(
      `${describe(place)}: GitHub at ${place.apiUrl} cannot be reached (${cause.replaceAll(place.token, "***")}; ${READ_ATTEMPTS} attempts)`,
      "check GITHUB_API_URL and the runner's network, then run the job again",
    );
  }
  if (response.status === 401 || response.status === 403)
    return unavailable(`${describe(place)}: GitHub refused the token (${response.status})`);
  if (response.status === 404)
    return unavailable(
      `${describe(place)} was not found (404): it does not exist, or the token cannot see it`,
    );
  if (response.status >= 500 || response.status === 429)
    return again(
      `${describe(place)}: GitHub answered ${response.status} (${READ_ATTEMPTS} attempts)`,
      "run the job again",
    );
  if (!response.ok)
    return unavailable(`${describe(place)}: GitHub answered ${response.status}`, "run the job again");
  try {
    return { ok: true, value: (await response.json()) as unknown };
  } catch {
    return unavailable(`${describe(place)}: GitHub's answer is not JSON`, "check GITHUB_API_URL");
  }
}

function userOf(v: unknown): GithubUser | undefined {
  if (!isObject(v) || typeof v.login !== "string" || typeof v.id !== "number") return undefined;
  return { login: v.login, id: v.id, type: typeof v.type === "string" ? v.type : "User" };
}

function pullRequestFacts(v: unknown): PullRequestFacts | undefined {
  if (!isObject(v) || typeof v.number !== "number" || !isObject(v.head) || typeof v.head.sha !== "string")
    return undefined;
  const author = userOf(v.user);
  return author === undefined ? undefined : { number: v.number, author, headSha: v.head.sha };
}

function reviewFacts(v: unknown): ReviewFacts | undefined {
  if (!isObject(v) || typeof v.id !== "number" || typeof v.state !== "string") return undefined;
  const user = v.user === null ? null : userOf(v.user);
  if (user === undefined) return undefined;
  return { id: v.id, user, state: v.state, commitId: typeof v.commit_id === "string" ? v.commit_id : null };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
