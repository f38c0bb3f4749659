/**
 * examples/ci/scripts/sticky-comment.mjs against a local stand-in of the GitHub and GitLab comment
 * APIs (node:http on 127.0.0.1) that records every request: the first run creates the comment, the
 * second updates the same one (no duplicate), a comment someone else wrote with the marker is left
 * alone (the stand-in, like the real APIs, refuses to let a token edit another user's comment), and
 * a plan too long for a comment is summarised with a link to the artifact.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { COMMENT_LIMIT, composeBody, main } from "../../examples/ci/scripts/sticky-comment.mjs";

const SCRIPT = "examples/ci/scripts/sticky-comment.mjs";
const TOKEN = "test-token-value-123";
const APP_TOKEN = "test-app-token-456";
const MARKER = "<!-- campaignctl-plan -->";

/** Who wrote a comment: GitHub shows `user.login`, GitLab `author.id` and `author.username`. */
interface Author {
  readonly id: number;
  readonly login: string;
}

/** The identity behind each token, as the APIs see it. */
const IDENTITIES: Record<string, Author> = {
  // A workflow's GITHUB_TOKEN writes as the GitHub Actions app.
  [TOKEN]: { id: 41898282, login: "github-actions[bot]" },
  // Another GitHub App's installation token (or a GitLab project access token's bot user).
  [APP_TOKEN]: { id: 901, login: "campaign-bot[bot]" },
};
const MALLORY: Author = { id: 666, login: "mallory" };
const REVIEWER: Author = { id: 7, login: "reviewer" };

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

interface Comment {
  id: number;
  body: string;
  author: Author;
}

/** A stand-in for one pull request's (or merge request's) comments. */
class CommentServer {
  readonly requests: Recorded[] = [];
  readonly comments: Comment[] = [];
  private nextId = 1000;
  private server: Server | undefined;
  status: number | undefined;

  constructor(readonly flavour: "github" | "gitlab") {}

  /** A comment written by someone (another person, or a forger) before the script runs. */
  add(body: string, author: Author = REVIEWER): Comment {
    const comment = { id: this.nextId++, body, author };
    this.comments.push(comment);
    return comment;
  }

  /** A comment as the platform's API shows it. */
  private show(c: Comment): unknown {
    return this.flavour === "github"
      ? { id: c.id, body: c.body, user: { login: c.author.login, id: c.author.id, type: "Bot" } }
      : { id: c.id, body: c.body, author: { id: c.author.id, username: c.author.login } };
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (d: Buffer) => {
        raw += d.toString("utf8");
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        const body = raw === "" ? null : (JSON.parse(raw) as { body: string });
        this.requests.push({
          method: req.method ?? "",
          path: url.pathname + url.search,
          headers: req.headers,
          body,
        });
        const reply = (status: number, value: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(value));
        };
        if (this.status !== undefined) return reply(this.status, { message: "Bad credentials" });
        const token =
          this.flavour === "github"
            ? String(req.headers.authorization ?? "").replace(/^Bearer /, "")
            : String(req.headers["private-token"] ?? "");
        const me = IDENTITIES[token];
        if (me === undefined) return reply(401, { message: "Bad credentials" });
        if (req.method === "GET" && (url.pathname === "/api/user" || url.pathname === "/api/v4/user")) {
          // GitHub: a workflow's GITHUB_TOKEN is an app installation token, which has no user.
          if (this.flavour === "github")
            return reply(403, { message: "Resource not accessible by integration" });
          return reply(200, { id: me.id, username: me.login, bot: true });
        }
        const list =
          this.flavour === "github"
            ? "/api/repos/o/r/issues/7/comments"
            : "/api/v4/projects/42/merge_requests/3/notes";
        const one =
          this.flavour === "github"
            ? /^\/api\/repos\/o\/r\/issues\/comments\/(\d+)$/
            : /^\/api\/v4\/projects\/42\/merge_requests\/3\/notes\/(\d+)$/;
        const update = this.flavour === "github" ? "PATCH" : "PUT";
        if (req.method === "GET" && url.pathname === list) {
          const page = Number(url.searchParams.get("page") ?? "1");
          const per = Number(url.searchParams.get("per_page") ?? "30");
          return reply(
            200,
            this.comments.slice((page - 1) * per, page * per).map((c) => this.show(c)),
          );
        }
        if (req.method === "POST" && url.pathname === list && body !== null) {
          return reply(201, this.show(this.add(body.body, me)));
        }
        const match = one.exec(url.pathname);
        if (req.method === update && match && body !== null) {
          const comment = this.comments.find((c) => c.id === Number(match[1]));
          if (comment === undefined) return reply(404, { message: "Not Found" });
          // Like the real APIs: a token may edit only its own comments.
          if (comment.author.id !== me.id) return reply(403, { message: "Forbidden" });
          comment.body = body.body;
          return reply(200, this.show(comment));
        }
        return reply(404, { message: "Not Found" });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/api${this.flavour === "gitlab" ? "/v4" : ""}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  writes(): Recorded[] {
    return this.requests.filter((r) => r.method !== "GET");
  }
}

interface ScriptRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The script as the CI step runs it: `node sticky-comment.mjs ARGS` with only `env` (and PATH).
 * For the runs that check the process itself (its exit code, what it prints); the others run
 * `runScript`, the same `main` in-process (a node process costs ~140 ms of CPU).
 */
function spawnScript(args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SCRIPT, ...args],
      { env: { PATH: process.env.PATH ?? "", ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The script's `main` in-process, with the environment `spawnScript` gives it; output as printed. */
async function runScript(args: string[], env: Record<string, string>): Promise<ScriptRun> {
  let stdout = "";
  let stderr = "";
  const code = await (main as ScriptMain)(
    args,
    { PATH: process.env.PATH ?? "", ...env },
    {
      out: (line) => {
        stdout += `${line}\n`;
      },
      err: (line) => {
        stderr += `${line}\n`;
      },
    },
  );
  return { code, stdout, stderr };
}

type ScriptMain = (
  argv: string[],
  env: Record<string, string>,
  print: { out: (line: string) => void; err: (line: string) => void },
) => Promise<number>;

function planFile(markdown: string): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-sticky-"));
  const file = join(dir, "plan.md");
  writeFileSync(file, markdown);
  return file;
}

const PLAN_MD =
  "## campaignctl plan\n\n**Plan: 3 to do (2 test, 1 pause), 3 deferred. 12 API requests.**\n\n| Project | Live |\n| --- | --- |\n| `gotv-reminder` GOTV | draft |\n";

let server: CommentServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("sticky comment on GitHub", () => {
  test("the first run posts, the second updates the same comment in place", async () => {
    server = new CommentServer("github");
    const api = await server.start();
    // Someone else's comments first, over more than one page, so the marker is found by paging.
    for (let i = 0; i < 120; i++) server.add(`review comment ${i}`);
    const env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: api, GITHUB_REPOSITORY: "o/r", PR_NUMBER: "7" };

    // The script as a process once: its exit code and output.
    const first = await spawnScript(["--body-file", planFile(PLAN_MD)], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created 1120 \(\d+ characters\)\n$/);
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/repos/o/r/issues/7/comments",
    ]);
    const posted = server.writes()[0];
    expect(posted?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect((posted as Recorded).body).toEqual({ body: `<!-- campaignctl-plan -->\n${PLAN_MD}` });

    const second = await runScript(["--body-file", planFile(PLAN_MD.replace("3 to do", "1 to do"))], env);
    expect(second.code).toBe(0);
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/repos/o/r/issues/7/comments",
      "PATCH /api/repos/o/r/issues/comments/1120",
    ]);
    const ours = server.comments.filter((c) => c.body.startsWith("<!-- campaignctl-plan -->"));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain("**Plan: 1 to do");
    expect(server.comments).toHaveLength(121);
    // The listing paged: 100 a page, the second page held the comment.
    expect(server.requests.filter((r) => r.method === "GET").map((r) => r.path)).toContain(
      "/api/repos/o/r/issues/7/comments?per_page=100&page=2",
    );
  });

  test("a forged comment with the marker is left alone: the plan is posted as a new comment", async () => {
    server = new CommentServer("github");
    const api = await server.start();
    const forged = server.add(`${MARKER}\n## campaignctl plan\n\n**Plan: nothing to do.**\n`, MALLORY);
    const env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: api, GITHUB_REPOSITORY: "o/r", PR_NUMBER: "7" };

    const first = await runScript(["--body-file", planFile(PLAN_MD)], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created 1001 /);
    const second = await runScript(["--body-file", planFile(PLAN_MD.replace("3 to do", "1 to do"))], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^updated 1001 /);

    // No write ever touched the forged comment; the real plan is the pipeline's own comment.
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/repos/o/r/issues/7/comments",
      "PATCH /api/repos/o/r/issues/comments/1001",
    ]);
    expect(server.comments).toEqual([
      forged,
      {
        id: 1001,
        body: `${MARKER}\n${PLAN_MD.replace("3 to do", "1 to do")}`,
        author: IDENTITIES[TOKEN],
      },
    ]);
    expect(forged.body).toContain("nothing to do");
    // GITHUB_TOKEN's identity is known, not asked (GET /user refuses an installation token).
    expect(server.requests.some((r) => r.path === "/api/user")).toBe(false);
  });

  test("STICKY_COMMENT_AUTHOR names the login of another token's comments", async () => {
    server = new CommentServer("github");
    const api = await server.start();
    // The workflow's own bot wrote a marker comment too (say, an older workflow): not ours now.
    server.add(`${MARKER}\nold plan by the Actions bot\n`, IDENTITIES[TOKEN]);
    const ours = server.add(`${MARKER}\nlast plan\n`, IDENTITIES[APP_TOKEN]);
    const env = {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: api,
      GITHUB_REPOSITORY: "o/r",
      PR_NUMBER: "7",
      STICKY_COMMENT_AUTHOR: "campaign-bot[bot]",
    };
    const run = await runScript(["--body-file", planFile(PLAN_MD)], env);
    expect(run.stderr).toBe("");
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /api/repos/o/r/issues/comments/${ours.id}`,
    ]);
    expect(ours.body).toBe(`${MARKER}\n${PLAN_MD}`);
  });

  test("a plan longer than a comment holds is summarised, with the link to the artifact", async () => {
    server = new CommentServer("github");
    const api = await server.start();
    const row = "| `p-0000` Project | draft | scheduled | `+` test, `~` schedule | none | 40 | $1.20 |\n";
    let long = "## campaignctl plan\n\n**Plan: 900 to do (900 test), 900 deferred. 907 API requests.**\n\n";
    long +=
      "| Project | Live | Desired | Actions | Blocked / drift | Recipients | Cost |\n| --- | --- | --- | --- | --- | ---: | ---: |\n";
    while (long.length < 70_000) long += row;
    long = long.slice(0, 70_000);
    expect(long.length).toBe(70_000);
    const url = "https://github.com/o/r/actions/runs/99/artifacts/5";
    const env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: api, GITHUB_REPOSITORY: "o/r", PR_NUMBER: "7" };

    const run = await runScript(["--body-file", planFile(long), "--artifact-url", url], env);
    expect(run.code).toBe(0);
    const body = ((server.writes()[0] as Recorded).body as { body: string }).body;
    expect(body.length).toBeLessThan(65_536);
    expect(body.startsWith("<!-- campaignctl-plan -->\n## campaignctl plan\n")).toBe(true);
    expect(body).toContain("**Plan: 900 to do (900 test), 900 deferred. 907 API requests.**");
    expect(body).toContain(`](${url})`);
    expect(body).toMatch(
      /Projects in the plan: \d+ \(with planned actions: \d+, deferred: \d+, blocked: 0\)/,
    );
  });

  test("a refused request fails the step without printing the token", async () => {
    server = new CommentServer("github");
    const api = await server.start();
    server.status = 401;
    const run = await spawnScript(["--body-file", planFile(PLAN_MD)], {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: api,
      GITHUB_REPOSITORY: "o/r",
      PR_NUMBER: "7",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("answered 401");
    expect(run.stderr + run.stdout).not.toContain(TOKEN);
  });

  test("missing inputs are named", async () => {
    const run = await spawnScript(["--body-file", planFile(PLAN_MD)], {
      GITHUB_REPOSITORY: "o/r",
      PR_NUMBER: "7",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("missing GITHUB_TOKEN");
  });
});

describe("sticky note on GitLab (--gitlab)", () => {
  test("the first run posts a note, the second updates it with PUT", async () => {
    server = new CommentServer("gitlab");
    const api = await server.start();
    server.add("LGTM");
    const env = { GITLAB_TOKEN: TOKEN, CI_API_V4_URL: api, CI_PROJECT_ID: "42", CI_MERGE_REQUEST_IID: "3" };

    expect((await runScript(["--gitlab", "--body-file", planFile(PLAN_MD)], env)).code).toBe(0);
    expect((await runScript(["--gitlab", "--body-file", planFile(`${PLAN_MD}more\n`)], env)).code).toBe(0);
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v4/projects/42/merge_requests/3/notes",
      "PUT /api/v4/projects/42/merge_requests/3/notes/1001",
    ]);
    expect(server.writes()[0]?.headers["private-token"]).toBe(TOKEN);
    expect(server.comments.map((c) => c.body)).toEqual([
      "LGTM",
      `<!-- campaignctl-plan -->\n${PLAN_MD}more\n`,
    ]);
  });
});

describe("sticky note on GitLab: only the token user's own note", () => {
  test("a forged note is left alone; the token's user comes from GET /user", async () => {
    server = new CommentServer("gitlab");
    const api = await server.start();
    const forged = server.add(`${MARKER}\nforged: nothing to do\n`, MALLORY);
    const env = {
      GITLAB_TOKEN: APP_TOKEN,
      CI_API_V4_URL: api,
      CI_PROJECT_ID: "42",
      CI_MERGE_REQUEST_IID: "3",
    };
    expect((await runScript(["--gitlab", "--body-file", planFile(PLAN_MD)], env)).code).toBe(0);
    expect((await runScript(["--gitlab", "--body-file", planFile(`${PLAN_MD}more\n`)], env)).code).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.path.replace(/\?.*/, "")}`)).toEqual([
      "GET /api/v4/user",
      "GET /api/v4/projects/42/merge_requests/3/notes",
      "POST /api/v4/projects/42/merge_requests/3/notes",
      "GET /api/v4/user",
      "GET /api/v4/projects/42/merge_requests/3/notes",
      "PUT /api/v4/projects/42/merge_requests/3/notes/1001",
    ]);
    expect(forged.body).toBe(`${MARKER}\nforged: nothing to do\n`);
    expect(server.comments.map((c) => [c.author.login, c.body])).toEqual([
      ["mallory", forged.body],
      ["campaign-bot[bot]", `${MARKER}\n${PLAN_MD}more\n`],
    ]);
  });

  test("STICKY_COMMENT_AUTHOR (a username) saves the GET /user", async () => {
    server = new CommentServer("gitlab");
    const api = await server.start();
    const ours = server.add(`${MARKER}\nlast plan\n`, IDENTITIES[APP_TOKEN]);
    const env = {
      GITLAB_TOKEN: APP_TOKEN,
      CI_API_V4_URL: api,
      CI_PROJECT_ID: "42",
      CI_MERGE_REQUEST_IID: "3",
      STICKY_COMMENT_AUTHOR: "campaign-bot[bot]",
    };
    expect((await runScript(["--gitlab", "--body-file", planFile(PLAN_MD)], env)).code).toBe(0);
    expect(server.requests.some((r) => r.path === "/api/v4/user")).toBe(false);
    expect(server.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /api/v4/projects/42/merge_requests/3/notes/${ours.id}`,
    ]);
  });
});

describe("composeBody", () => {
  const compose = composeBody as (
    md: string,
    o?: { marker?: string; artifactUrl?: string; limit?: number },
  ) => string;

  test("keeps a body that fits, marker first", () => {
    expect(compose("x", { marker: "m" })).toBe("<!-- m -->\nx");
    expect(COMMENT_LIMIT).toBe(65_536);
  });

  test("summarises exactly at the limit's edge", () => {
    const marker = "<!-- campaignctl-plan -->\n";
    const fits = "a".repeat(65_536 - marker.length);
    expect(compose(fits)).toBe(marker + fits);
    expect(compose(`${fits}a`).length).toBeLessThan(1_000);
  });
});
