/**
 * Counting approvals (src/approvals): distinct people other than the author, whatever the source;
 * GitHub reviews bound to the plan's commit and the pull request's head; signature checks turned
 * into evidence; the plan hash; the allowed signers' names. Pure functions, on hand-made facts.
 */
import { describe, expect, test } from "vitest";
import { redactorFor } from "../../cli/output/output-redaction.js";
import { allowedPrincipals } from "../../src/approvals/allowed-signers.js";
import { countApprovals, enoughApprovals, type Person } from "../../src/approvals/count.js";
import { type GithubUser, type ReviewFacts, reviewApprovals } from "../../src/approvals/github.js";
import { signatureFileName } from "../../src/approvals/payload.js";
import { canonicalJson, planSha256 } from "../../src/approvals/plan-hash.js";
import { signedApprovals } from "../../src/approvals/signed.js";

const HEAD = "a".repeat(40);
const OLD = "b".repeat(40);
const user = (login: string, id: number, type = "User"): GithubUser => ({ login, id, type });
const AUTHOR = user("dana", 1);
const pr = { number: 7, author: AUTHOR, headSha: HEAD };
let nextId = 100;
const review = (u: GithubUser | null, state: string, commit: string | null = HEAD): ReviewFacts => ({
  id: nextId++,
  user: u,
  state,
  commitId: commit,
});

describe("counting people", () => {
  const person = (name: string, ...ids: string[]): Person => ({ name, ids });
  const valid = (by: Person, where: string) => ({ kind: "valid" as const, by, where });

  test("two distinct people other than the author are enough for two; one is not", () => {
    const author = person("dana", "principal:dana", "key:D");
    const found = {
      evidence: [valid(person("erin", "principal:erin", "key:E"), "e.sig")],
      authors: [author],
      problems: [],
    };
    expect(enoughApprovals(countApprovals(2, found))).toBe(false);
    const two = {
      ...found,
      evidence: [...found.evidence, valid(person("frank", "principal:frank", "key:F"), "f.sig")],
    };
    const verdict = countApprovals(2, two);
    expect(enoughApprovals(verdict)).toBe(true);
    expect(verdict.approvers.map((a) => a.by.name)).toEqual(["erin", "frank"]);
  });

  test("the author's approval, or a second one by the same key or principal, does not count", () => {
    const author = person("dana", "principal:dana", "key:D");
    const verdict = countApprovals(2, {
      evidence: [
        valid(person("dana", "principal:dana", "key:D"), "dana.sig"),
        // The author's key listed under another principal is still the author.
        valid(person("dee", "principal:dee", "key:D"), "dee.sig"),
        valid(person("erin", "principal:erin", "key:E"), "erin.sig"),
        // Erin's principal with a second key, and erin's key under a second principal: one person.
        valid(person("erin", "principal:erin", "key:E2"), "erin2.sig"),
        valid(person("erin-alt", "principal:erin-alt", "key:E"), "erin3.sig"),
      ],
      authors: [author],
      problems: [],
    });
    expect(verdict.approvers.map((a) => a.where)).toEqual(["erin.sig"]);
    expect(verdict.notCounted.map((n) => [n.where, n.why])).toEqual([
      ["dana.sig", "by the plan's author (dana)"],
      ["dee.sig", "by the plan's author (dana)"],
      ["erin2.sig", "the same person as erin (erin.sig), counted once"],
      ["erin3.sig", "the same person as erin (erin.sig), counted once"],
    ]);
    expect(enoughApprovals(verdict)).toBe(false);
  });

  test("with no known author, or a problem, nothing is enough whatever the count", () => {
    const evidence = [valid(person("erin", "key:E"), "e"), valid(person("frank", "key:F"), "f")];
    expect(enoughApprovals(countApprovals(1, { evidence, authors: [], problems: [] }))).toBe(false);
    expect(
      enoughApprovals(countApprovals(1, { evidence, authors: [person("d", "key:D")], problems: ["x"] })),
    ).toBe(false);
  });
});

describe("GitHub reviews", () => {
  test("approvals of the plan's commit by others count; the author's, a bot's, an old commit's do not", () => {
    const found = reviewApprovals(
      pr,
      [
        review(AUTHOR, "APPROVED"),
        review(user("erin", 2), "APPROVED"),
        review(user("frank", 3), "APPROVED", OLD),
        review(user("ci-bot", 4, "Bot"), "APPROVED"),
        review(user("gus", 5), "COMMENTED"),
      ],
      HEAD,
    );
    const verdict = countApprovals(2, found);
    expect(verdict.approvers.map((a) => a.by.name)).toEqual(["@erin"]);
    expect(verdict.notCounted.map((n) => `${n.who}: ${n.why}`)).toEqual([
      "@dana: by the plan's author (@dana)",
      "@frank: approved commit bbbbbbbbbbbb, not the commit the plan was made from (aaaaaaaaaaaa)",
      "@ci-bot: a bot's review does not count",
    ]);
    expect(enoughApprovals(verdict)).toBe(false);
  });

  test("each reviewer's last decisive review is their verdict: a comment does not undo, a request for changes does", () => {
    const erin = user("erin", 2);
    const frank = user("frank", 3);
    const found = reviewApprovals(
      pr,
      [
        review(erin, "APPROVED"),
        review(erin, "COMMENTED"),
        review(frank, "APPROVED"),
        review(frank, "CHANGES_REQUESTED"),
        review(user("gus", 5), "DISMISSED"),
      ],
      HEAD,
    );
    const verdict = countApprovals(1, found);
    expect(verdict.approvers.map((a) => a.by.name)).toEqual(["@erin"]);
    expect(verdict.notCounted.map((n) => `${n.who}: ${n.why}`)).toEqual([
      "@frank: requested changes (their last review)",
      "@gus: their review was dismissed",
    ]);
    expect(enoughApprovals(verdict)).toBe(true);
  });

  test("a plan not made from the pull request's head, or from no known commit, cannot be approved by reviews", () => {
    const reviews = [review(user("erin", 2), "APPROVED", OLD), review(user("frank", 3), "APPROVED", OLD)];
    // The plan document names the old, approved commit, but the pull request moved on since.
    const moved = countApprovals(1, reviewApprovals(pr, reviews, OLD));
    expect(moved.approvers).toHaveLength(2);
    expect(moved.problems[0]).toContain("the head of pull request #7 is aaaaaaaaaaaa");
    expect(enoughApprovals(moved)).toBe(false);
    const none = countApprovals(1, reviewApprovals(pr, reviews, undefined));
    expect(none.problems[0]).toContain("records no commit");
    expect(enoughApprovals(none)).toBe(false);
  });
});

describe("signature checks", () => {
  test("the author is who signed as author; without one no approval is enough", () => {
    const approver = (file: string, p: string, key: string) =>
      ({ kind: "verified", file, role: "approver", principals: [p], fingerprint: key }) as const;
    const checks = [
      approver("erin.sig", "erin@x", "SHA256:E"),
      approver("frank.sig", "frank@x", "SHA256:F"),
      {
        kind: "rejected",
        file: "eve.sig",
        role: "approver",
        who: "key SHA256:V",
        why: "not allowed",
      } as const,
    ];
    const unsigned = countApprovals(2, signedApprovals(checks));
    expect(unsigned.approvers).toHaveLength(2);
    expect(unsigned.problems).toHaveLength(1);
    expect(enoughApprovals(unsigned)).toBe(false);
    const authored = countApprovals(
      2,
      signedApprovals([
        ...checks,
        {
          kind: "verified",
          file: "dana.author.sig",
          role: "author",
          principals: ["dana@x"],
          fingerprint: "SHA256:D",
        },
      ]),
    );
    expect(enoughApprovals(authored)).toBe(true);
    expect(authored.notCounted).toEqual([{ who: "key SHA256:V", where: "eve.sig", why: "not allowed" }]);
  });
});

describe("the plan hash and names", () => {
  test("the hash is of canonical JSON: layout and key order do not change it, a value does", () => {
    const a = JSON.parse('{"b": [1, {"y": "é", "x": null}], "a": 1.5}');
    const b = JSON.parse('{\n  "a": 1.5,\n  "b": [1, {"x": null, "y": "\\u00e9"}]\n}');
    expect(canonicalJson(a)).toBe('{"a":1.5,"b":[1,{"x":null,"y":"é"}]}');
    expect(planSha256(a)).toBe(planSha256(b));
    expect(planSha256({ ...a, a: 1.25 })).not.toBe(planSha256(a));
    expect(planSha256(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  test("an allowed signers file's principals, without patterns or comments", () => {
    const text = [
      "# people who approve sends",
      "erin@example.org ssh-ed25519 AAAA",
      'frank@example.org,fr@example.org namespaces="campaignctl-approval" ssh-ed25519 AAAA',
      '"gus@example.org" ssh-ed25519 AAAA',
      "*@example.org cert-authority ssh-ed25519 AAAA",
      "",
    ].join("\n");
    expect(allowedPrincipals(text)).toEqual([
      "erin@example.org",
      "frank@example.org",
      "fr@example.org",
      "gus@example.org",
    ]);
  });

  test("signature file names are plain file names", () => {
    expect(signatureFileName("dana@example.org", "approver")).toBe("dana@example.org.sig");
    expect(signatureFileName("dana@example.org", "author")).toBe("dana@example.org.author.sig");
    expect(signatureFileName("../../etc/x", "approver")).toBe("_._.._etc_x.sig");
    expect(signatureFileName(".hidden", "approver")).toBe("_hidden.sig");
  });
});

describe("the GitHub token in output", () => {
  test("is one of the run's secrets: any output that held it would show it masked", () => {
    const token = "ghs_FakeWorkflowTokenNotARealOneXyzQw";
    const redact = redactorFor(["apply", "plan.json"], { GITHUB_TOKEN: token });
    expect(redact(`Authorization: Bearer ${token}`)).toBe("Authorization: Bearer [redacted]");
  });
});
