/**
 * A stand-in for the GitHub REST API on loopback, for the approvals tests: it answers
 * `GET /repos/{owner}/{repo}/pulls/{n}` and `GET /repos/{owner}/{repo}/pulls/{n}/reviews` (paged as
 * GitHub pages, `per_page` and `page`) from the pull request and reviews the test sets, only with the
 * expected token (failing the next `failNext` requests, as an outage does), and records every request (path and Authorization header) so tests can check what
 * was asked and with what.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeUser {
  readonly login: string;
  readonly id: number;
  readonly type?: string;
}

export interface FakeReview {
  readonly user: FakeUser | null;
  readonly state: string;
  readonly commit_id: string;
}

export interface FakeGithub {
  /** `http://127.0.0.1:<port>`: GITHUB_API_URL. */
  readonly url: string;
  readonly requests: { readonly path: string; readonly authorization: string | undefined }[];
  pr: { number: number; user: FakeUser; head: { sha: string }; requested_reviewers: FakeUser[] };
  reviews: FakeReview[];
  /** The next this many requests are answered `failStatus` (a GitHub outage, one request each). */
  failNext: number;
  failStatus: number;
  close(): Promise<void>;
}

export async function fakeGithub(repository: string, token: string): Promise<FakeGithub> {
  const state: FakeGithub = {
    url: "",
    requests: [],
    pr: { number: 7, user: { login: "dana", id: 1 }, head: { sha: "" }, requested_reviewers: [] },
    reviews: [],
    failNext: 0,
    failStatus: 502,
    close: async () => {},
  };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    state.requests.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
    if (req.method !== "GET") return answer(res, 405, { message: "Method Not Allowed" });
    if (state.failNext > 0) {
      state.failNext--;
      return answer(res, state.failStatus, { message: "Server Error" });
    }
    if (req.headers.authorization !== `Bearer ${token}`)
      return answer(res, 401, { message: "Bad credentials" });
    const base = `/repos/${repository}/pulls/${state.pr.number}`;
    if (url.pathname === base) return answer(res, 200, state.pr);
    if (url.pathname === `${base}/reviews`) {
      const perPage = Number(url.searchParams.get("per_page") ?? "30");
      const page = Number(url.searchParams.get("page") ?? "1");
      const items = state.reviews.map((r, i) => ({
        id: 1000 + i,
        ...r,
        submitted_at: "2026-12-01T12:00:00Z",
      }));
      return answer(res, 200, items.slice((page - 1) * perPage, page * perPage));
    }
    return answer(res, 404, { message: "Not Found" });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  });
}
