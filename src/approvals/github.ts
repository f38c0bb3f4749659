/**
 * Approvals from GitHub (issue 37 point 6): the approving reviews of the pull request, by people
 * other than its author, bound to the saved plan through the commit it was made from. A review
 * approves a commit (`commit_id`); the plan records the commit it was made from (`commit`, the pull
 * request's head when `plan` ran in its workflow); and that commit must still be the pull request's
 * head, so a plan document edited to name an older, approved commit is refused: what was approved,
 * what was planned and what was merged are one commit. Each reviewer's last decisive review (approve,
 * request changes, or dismissed) is their verdict, as GitHub shows it; a comment does not change it.
 * Pure: cli/adapters/github-reviews.ts reads the API.
 */
import type { ApprovalEvidence, ApprovalsFound, Person } from "./count.js";

/** The pull request as the API gives it (`GET /repos/{o}/{r}/pulls/{n}`), what matters of it. */
export interface PullRequestFacts {
  readonly number: number;
  readonly author: GithubUser;
  readonly headSha: string;
}

/** A GitHub account; `type` is `User`, `Bot` or `Organization`. */
export interface GithubUser {
  readonly login: string;
  readonly id: number;
  readonly type: string;
}

/** One review (`GET /repos/{o}/{r}/pulls/{n}/reviews`), in the API's (chronological) order. */
export interface ReviewFacts {
  readonly id: number;
  /** Null for a deleted account. */
  readonly user: GithubUser | null;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING. */
  readonly state: string;
  /** The commit the review was made on; null when the API does not say. */
  readonly commitId: string | null;
}

const DECISIVE = new Set(["APPROVED", "CHANGES_REQUESTED", "DISMISSED"]);

export function githubPerson(user: GithubUser): Person {
  return { name: `@${user.login}`, ids: [`github:${user.id}`] };
}

/** The short form of a commit in messages. */
function shortSha(sha: string): string {
  return sha.slice(0, 12);
}

export function reviewApprovals(
  pr: PullRequestFacts,
  reviews: readonly ReviewFacts[],
  planCommit: string | undefined,
): ApprovalsFound {
  const problems: string[] = [];
  if (planCommit === undefined)
    problems.push(
      "the saved plan records no commit, so no review can be bound to it (plan in the pull request's workflow, where `plan --out` records its head commit)",
    );
  else if (planCommit.toLowerCase() !== pr.headSha.toLowerCase())
    problems.push(
      `the plan was made from commit ${shortSha(planCommit)}, but the head of pull request #${pr.number} is ${shortSha(pr.headSha)}: plan the head again and have that reviewed`,
    );
  const last = new Map<number, ReviewFacts>();
  const order: number[] = [];
  for (const review of reviews) {
    if (review.user === null || !DECISIVE.has(review.state)) continue;
    if (!last.has(review.user.id)) order.push(review.user.id);
    last.set(review.user.id, review);
  }
  const evidence = order.flatMap((id) => {
    const review = last.get(id);
    return review === undefined ? [] : [judgeReview(review, planCommit)];
  });
  return { evidence, authors: [githubPerson(pr.author)], problems };
}

/** One reviewer's last decisive review as evidence. */
function judgeReview(review: ReviewFacts, planCommit: string | undefined): ApprovalEvidence {
  const user = review.user as GithubUser;
  const where = `review ${review.id}`;
  const invalid = (why: string): ApprovalEvidence => ({ kind: "invalid", who: `@${user.login}`, where, why });
  if (review.state === "CHANGES_REQUESTED") return invalid("requested changes (their last review)");
  if (review.state === "DISMISSED") return invalid("their review was dismissed");
  if (user.type === "Bot") return invalid("a bot's review does not count");
  if (planCommit === undefined) return invalid("the plan records no commit to bind the review to");
  if (review.commitId === null || review.commitId.toLowerCase() !== planCommit.toLowerCase())
    return invalid(
      `approved commit ${review.commitId === null ? "(unknown)" : shortSha(review.commitId)}, not the commit the plan was made from (${shortSha(planCommit)})`,
    );
  return { kind: "valid", by: githubPerson(user), where };
}
