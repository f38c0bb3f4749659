#!/usr/bin/env node
/**
 * Posts a Markdown file (the `campaignctl plan --markdown` output) as ONE pull-request comment
 * (GitHub) or merge-request note (GitLab, `--gitlab`) and updates that same comment on every later
 * run instead of adding another. The comment is found by a hidden marker line
 * (`<!-- campaignctl-plan -->` by default) that this script puts first in the body, AND by its
 * author: only a comment the pipeline's own identity wrote is ever updated. Anyone may write a
 * comment that starts with the marker; such a comment is left alone and the plan is posted as a
 * new comment (then updated in place on later runs).
 *
 * The pipeline's identity: on GitHub the login that the token's comments carry, `github-actions[bot]`
 * for the workflow's GITHUB_TOKEN (whose identity no API call reveals: `GET /user` refuses it);
 * set STICKY_COMMENT_AUTHOR to another login for another token (a GitHub App's `<app-slug>[bot]`,
 * or a personal access token's user). On GitLab the token's user, from `GET /user` (project and
 * group access tokens have a bot user of their own), or the username in STICKY_COMMENT_AUTHOR.
 *
 * Comments stay under the platform's limit (GitHub: 65,536 characters): a longer body is replaced
 * by a summary (the plan's summary line and counts) with a link to the full plan (`--artifact-url`).
 *
 * Dependency-free (Node.js 20 or newer, global fetch). Copy it into your repository.
 *
 *   node sticky-comment.mjs --body-file plan.md [--marker campaignctl-plan] [--artifact-url URL]
 *   node sticky-comment.mjs --gitlab --body-file plan.md ...
 *
 * GitHub (Actions sets all but the token and the number):
 *   GITHUB_TOKEN        token allowed to write pull-request comments (`pull-requests: write`)
 *   GITHUB_API_URL      API root, default https://api.github.com
 *   GITHUB_REPOSITORY   owner/name (or --repo)
 *   PR_NUMBER           the pull request's number (or --pr)
 *   STICKY_COMMENT_AUTHOR  the login of the token's comments, default github-actions[bot]
 * GitLab (CI sets all but the token):
 *   GITLAB_TOKEN        a project or personal access token with the `api` scope (job tokens cannot write notes)
 *   CI_API_V4_URL       API root, such as https://gitlab.com/api/v4
 *   CI_PROJECT_ID       the project id (or --project)
 *   CI_MERGE_REQUEST_IID  the merge request's iid (or --mr)
 *   STICKY_COMMENT_AUTHOR  the token user's username, default: asked with `GET /user`
 *
 * Prints `created <id>` or `updated <id>`; exits 1 (with the API's status, never the token) when a
 * request fails or an input is missing.
 */
import { readFileSync } from "node:fs";

/** GitHub refuses comment bodies longer than this many characters. */
export const COMMENT_LIMIT = 65_536;

const DEFAULT_MARKER = "campaignctl-plan";

/** The login of comments written with a GitHub Actions workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_LOGIN = "github-actions[bot]";

/** The hidden first line that identifies our comment. */
export function markerLine(marker) {
  return `<!-- ${marker} -->`;
}

/**
 * The body to post: the marker line, then the Markdown; or, when that would exceed `limit`
 * characters, the marker, the plan's title and summary line, counts, and a link to the full plan.
 */
export function composeBody(markdown, { marker = DEFAULT_MARKER, artifactUrl, limit = COMMENT_LIMIT } = {}) {
  const full = `${markerLine(marker)}\n${markdown}`;
  if (full.length <= limit) return full;
  const lines = markdown.split("\n");
  const title = lines.find((l) => /^#{1,6}\s/.test(l)) ?? "## campaignctl plan";
  const summary = lines.find((l) => /^\*\*.+\*\*\s*$/.test(l.trim())) ?? "";
  const rows = lines.filter((l) => /^\| `[^`]+`/.test(l));
  const count = (symbol) => rows.filter((r) => r.includes(`\`${symbol}\``)).length;
  const link =
    artifactUrl === undefined || artifactUrl === ""
      ? "The full plan is in this run's artifacts (plan.md, plan.json)."
      : `The full plan: [plan.md and plan.json in the run's artifacts](${artifactUrl}).`;
  const parts = [
    markerLine(marker),
    title,
    "",
    summary,
    "",
    `The plan's Markdown is ${markdown.length.toLocaleString("en-US")} characters, more than a comment holds (${limit.toLocaleString("en-US")}), so only its summary is shown here.`,
    "",
    `Projects in the plan: ${rows.length} (with planned actions: ${count("+")}, deferred: ${count("~")}, blocked: ${count("!")}).`,
    "",
    link,
    "",
  ];
  let body = parts.join("\n");
  if (body.length > limit) body = `${markerLine(marker)}\n${title}\n\n${link}\n`.slice(0, limit);
  return body;
}

function parseArgs(argv) {
  const out = { gitlab: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case "--gitlab":
        out.gitlab = true;
        break;
      case "--body-file":
        out.bodyFile = value();
        break;
      case "--marker":
        out.marker = value();
        break;
      case "--artifact-url":
        out.artifactUrl = value();
        break;
      case "--repo":
        out.repo = value();
        break;
      case "--pr":
        out.pr = value();
        break;
      case "--project":
        out.project = value();
        break;
      case "--mr":
        out.mr = value();
        break;
      case "--limit":
        out.limit = Number(value());
        break;
      default:
        throw new UsageError(`unknown argument ${arg}`);
    }
  }
  return out;
}

class UsageError extends Error {}

function required(value, what) {
  if (value === undefined || value === "") throw new UsageError(`missing ${what}`);
  return value;
}

/**
 * One platform's calls: list comments (all pages), create, update, and who wrote a comment
 * (`isOurs`, after `identify` has learnt the pipeline's identity).
 */
function platform(args, env) {
  if (args.gitlab) {
    const api = required(env.CI_API_V4_URL, "CI_API_V4_URL").replace(/\/+$/, "");
    const project = encodeURIComponent(
      required(args.project ?? env.CI_PROJECT_ID, "CI_PROJECT_ID or --project"),
    );
    const mr = required(args.mr ?? env.CI_MERGE_REQUEST_IID, "CI_MERGE_REQUEST_IID or --mr");
    const token = required(env.GITLAB_TOKEN, "GITLAB_TOKEN");
    const base = `${api}/projects/${project}/merge_requests/${mr}/notes`;
    const username = env.STICKY_COMMENT_AUTHOR || undefined;
    return {
      headers: { "PRIVATE-TOKEN": token },
      listUrl: (page) => `${base}?per_page=100&page=${page}&sort=asc&order_by=created_at`,
      createUrl: base,
      updateUrl: (id) => `${base}/${id}`,
      updateMethod: "PUT",
      // The token's own user; a configured username saves the request.
      identify: async (p) => {
        if (username !== undefined) return { username };
        const user = await call(p, "GET", `${api}/user`);
        if (typeof user?.id !== "number") throw new Error("GET /user answered no user id");
        return { id: user.id };
      },
      isOurs: (note, me) =>
        me.id !== undefined ? note.author?.id === me.id : note.author?.username === me.username,
    };
  }
  const api = (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  const repo = required(args.repo ?? env.GITHUB_REPOSITORY, "GITHUB_REPOSITORY or --repo");
  const pr = required(args.pr ?? env.PR_NUMBER, "PR_NUMBER or --pr");
  const token = required(env.GITHUB_TOKEN, "GITHUB_TOKEN");
  return {
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
    },
    listUrl: (page) => `${api}/repos/${repo}/issues/${pr}/comments?per_page=100&page=${page}`,
    createUrl: `${api}/repos/${repo}/issues/${pr}/comments`,
    updateUrl: (id) => `${api}/repos/${repo}/issues/comments/${id}`,
    updateMethod: "PATCH",
    identify: async () => ({ login: env.STICKY_COMMENT_AUTHOR || GITHUB_ACTIONS_LOGIN }),
    isOurs: (comment, me) => comment.user?.login === me.login,
  };
}

async function call(p, method, url, body) {
  const response = await fetch(url, {
    method,
    headers: {
      ...p.headers,
      "user-agent": "campaignctl-sticky-comment",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify({ body }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return text === "" ? null : JSON.parse(text);
}

/** Creates or updates the sticky comment; returns what it did. */
export async function upsertComment({ args, env }) {
  const p = platform(args, env);
  const markdown = readFileSync(required(args.bodyFile, "--body-file"), "utf8");
  const marker = args.marker ?? DEFAULT_MARKER;
  const body = composeBody(markdown, { marker, artifactUrl: args.artifactUrl, limit: args.limit });
  const line = markerLine(marker);
  const me = await p.identify(p);
  // Ours: the marker first AND written by the pipeline's identity. A comment that only starts
  // with the marker may be anyone's: updating it would fail (403) or take over a person's words.
  const ours = (c) => typeof c.body === "string" && c.body.startsWith(line) && p.isOurs(c, me);
  let existing;
  for (let page = 1; existing === undefined; page++) {
    const comments = await call(p, "GET", p.listUrl(page));
    if (!Array.isArray(comments)) break;
    existing = comments.find(ours);
    if (comments.length < 100) break;
  }
  if (existing !== undefined) {
    const updated = await call(p, p.updateMethod, p.updateUrl(existing.id), body);
    return { action: "updated", id: updated?.id ?? existing.id, length: body.length };
  }
  const created = await call(p, "POST", p.createUrl, body);
  return { action: "created", id: created?.id, length: body.length };
}

/**
 * The command: `argv` and `env` as the CI step gives them. Says what it did on `out`, or why not on
 * `err`, and returns the exit code (0 done, 1 not). Exported for tests that run it in-process.
 */
export async function main(argv, env, { out = console.log, err = console.error } = {}) {
  try {
    const done = await upsertComment({ args: parseArgs(argv), env });
    out(`${done.action} ${done.id} (${done.length} characters)`);
    return 0;
  } catch (error) {
    const prefix = error instanceof UsageError ? "usage: " : "";
    err(`sticky-comment: ${prefix}${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (process.argv[1]?.endsWith("sticky-comment.mjs"))
  process.exitCode = await main(process.argv.slice(2), process.env);
