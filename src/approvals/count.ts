/**
 * Counting approvals (issue 37 point 6): whatever they come from (GitHub reviews, signed files),
 * approvals are evidence about people, and the rule counts **distinct people other than the plan's
 * author**. Two approvals are one person's when they share any identity (a principal, a key, a
 * GitHub account), so one key listed under two principals, or one principal with two keys, counts
 * once; an approval sharing any identity with an author does not count. Pure.
 */

/**
 * One person, as approvals tell people apart. Invariant: `ids` is non-empty, each id prefixed by
 * its kind (`principal:dana@example.org`, `key:SHA256:...`, `github:12345`).
 */
export interface Person {
  /** For messages: principals (`dana@example.org`) or a GitHub login (`@dana`). */
  readonly name: string;
  readonly ids: readonly string[];
}

/**
 * One approval found, before counting: valid evidence that `by` approved the plan, or why it is not
 * (`who` as far as it can be told). `where` names it for people: a file, a review.
 */
export type ApprovalEvidence =
  | { readonly kind: "valid"; readonly by: Person; readonly where: string }
  | { readonly kind: "invalid"; readonly who: string; readonly where: string; readonly why: string };

/**
 * What one source of approvals (GitHub reviews, signature files) proves, before counting: the
 * evidence in order, the plan's author(s), and why no approval can count at all (`problems`).
 */
export interface ApprovalsFound {
  readonly evidence: readonly ApprovalEvidence[];
  readonly authors: readonly Person[];
  readonly problems: readonly string[];
}

/** An approval that does not count, and why. */
export interface NotCounted {
  readonly who: string;
  readonly where: string;
  readonly why: string;
}

/**
 * The count. Invariants: `approvers` are pairwise distinct people, none sharing an identity with an
 * author; every evidence is in `approvers` or `notCounted`. `problems` are why no approval can count
 * at all (the plan's author is not known, the plan is not bound to what was reviewed); then nothing is
 * enough, whatever the count.
 */
export interface ApprovalsVerdict {
  readonly required: number;
  readonly approvers: readonly { readonly by: Person; readonly where: string }[];
  readonly notCounted: readonly NotCounted[];
  readonly authors: readonly Person[];
  readonly problems: readonly string[];
}

function samePerson(a: Person, b: Person): boolean {
  return a.ids.some((id) => b.ids.includes(id));
}

/** Counts what was found (in order: the first approval of a person is the one counted). */
export function countApprovals(required: number, found: ApprovalsFound): ApprovalsVerdict {
  const { evidence, authors, problems } = found;
  const approvers: { by: Person; where: string }[] = [];
  const notCounted: NotCounted[] = [];
  for (const e of evidence) {
    if (e.kind === "invalid") {
      notCounted.push({ who: e.who, where: e.where, why: e.why });
      continue;
    }
    const author = authors.find((a) => samePerson(a, e.by));
    const earlier = approvers.find((a) => samePerson(a.by, e.by));
    if (author !== undefined)
      notCounted.push({ who: e.by.name, where: e.where, why: `by the plan's author (${author.name})` });
    else if (earlier !== undefined)
      notCounted.push({
        who: e.by.name,
        where: e.where,
        why: `the same person as ${earlier.by.name} (${earlier.where}), counted once`,
      });
    else approvers.push({ by: e.by, where: e.where });
  }
  return { required, approvers, notCounted, authors, problems };
}

/** Are there enough? No problem, the author known, and `required` distinct approvers. */
export function enoughApprovals(verdict: ApprovalsVerdict): boolean {
  return (
    verdict.problems.length === 0 &&
    verdict.authors.length > 0 &&
    verdict.approvers.length >= verdict.required
  );
}
