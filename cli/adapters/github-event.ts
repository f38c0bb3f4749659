/**
 * What a GitHub Actions run says about itself (issue 37 point 6), from its environment and the
 * event payload file (`GITHUB_EVENT_PATH`): whether this is GitHub Actions, the pull request's
 * number and head commit for the `pull_request` events, and the commit a plan is made from (that
 * head, else `GITHUB_SHA`). Nothing here needs the token.
 */
import { readFileSync } from "node:fs";

/** The environment a command sees (`io.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Is this run a GitHub Actions job? */
export function inGithubActions(env: Env): boolean {
  return env.GITHUB_ACTIONS === "true";
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The pull request of the event that started the run, when it is one (`pull_request`, `pull_request_target`, `pull_request_review`). */
export interface EventPullRequest {
  readonly number: number;
  readonly headSha: string;
}

/** The event payload's pull request; undefined when there is none, or the payload cannot be read. */
export function eventPullRequest(env: Env): EventPullRequest | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (path === undefined || path === "") return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const pr = isObject(payload) ? payload.pull_request : undefined;
  if (!isObject(pr) || typeof pr.number !== "number" || !Number.isSafeInteger(pr.number)) return undefined;
  const head = pr.head;
  const sha = isObject(head) && typeof head.sha === "string" ? head.sha.toLowerCase() : "";
  return SHA.test(sha) ? { number: pr.number, headSha: sha } : undefined;
}

/**
 * The commit a plan made in this run is made from, for reviews to be bound to: in GitHub Actions, the
 * pull request's head commit (what its reviews approve; `GITHUB_SHA` is then a merge commit nobody
 * reviews), else `GITHUB_SHA`; outside GitHub Actions, none.
 */
export function planCommit(env: Env): string | undefined {
  if (!inGithubActions(env)) return undefined;
  const pr = eventPullRequest(env);
  if (pr !== undefined) return pr.headSha;
  const sha = env.GITHUB_SHA?.toLowerCase();
  return sha !== undefined && SHA.test(sha) ? sha : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
