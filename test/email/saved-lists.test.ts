/**
 * The pure checks behind `apply PLANFILE` for email lists (src/email/saved-lists.ts) and the email
 * side of `--target`/`--exclude` (src/email/select.ts): codes and messages for each difference.
 */
import { describe, expect, test } from "vitest";
import type { EmailListPlan, EmailPlan } from "../../src/email/email-plan.js";
import type { EmailCampaignSpec, EmailListSpec, EmailSpecs } from "../../src/email/model.js";
import { compareCsvDigests, compareEmailLists, type SavedEmailList } from "../../src/email/saved-lists.js";
import { selectEmail } from "../../src/email/select.js";

const A = "a".repeat(64);
const B = "b".repeat(64);

const saved: SavedEmailList = {
  address: "young",
  list_id: "e2-1",
  csv: "lists/young.csv",
  sha256: A,
  state: "sync",
  rows: 10,
  to_send: 9,
  refused: 1,
};

function fresh(lists: Partial<EmailListPlan>[]): EmailPlan {
  return {
    available: true,
    campaigns: [],
    diagnostics: [],
    lists: lists.map((l) => ({
      address: saved.address,
      list_id: saved.list_id,
      csv: saved.csv,
      sha256: A,
      state: "sync",
      readable: true,
      rows: 10,
      to_send: 9,
      refused: 1,
      batches: 1,
      refused_by_code: {},
      diagnostics: [],
      more: 0,
      ...l,
    })),
  };
}

describe("saved email lists", () => {
  test("a changed, missing or unreadable CSV refuses; the same bytes pass", () => {
    const now = (kind: "same" | "changed" | "missing" | "unreadable") =>
      compareCsvDigests(
        [saved],
        new Map([
          [
            "lists/young.csv",
            kind === "same"
              ? { kind: "found" as const, sha256: A }
              : kind === "changed"
                ? { kind: "found" as const, sha256: B }
                : kind === "missing"
                  ? { kind: "missing" as const }
                  : { kind: "unreadable" as const, message: "EACCES" },
          ],
        ]),
        "plan.json",
      );
    expect(now("same")).toEqual([]);
    const [changed] = now("changed");
    expect(changed?.code).toBe("apply.files-changed");
    expect(changed?.message).toBe(
      "email list young: its CSV lists/young.csv changed since the plan was made (sha256 aaaaaaaaaaaa in the plan, bbbbbbbbbbbb now)",
    );
    expect(changed?.hint).toContain("campaignctl plan --out plan.json");
    expect(now("missing").map((d) => d.code)).toEqual(["apply.file-missing"]);
    expect(now("unreadable")[0]?.message).toContain("(EACCES)");
  });

  test("the lists made again must be the ones reviewed: each field, a list gone, a list new", () => {
    expect(compareEmailLists([saved], fresh([{}]), "plan.json")).toEqual([]);
    const counts = compareEmailLists([saved], fresh([{ rows: 11, to_send: 10 }]), "plan.json");
    expect(counts.map((d) => d.message)).toEqual([
      "email list young: rows differs (saved: 10; fresh: 11)",
      "email list young: to_send differs (saved: 9; fresh: 10)",
    ]);
    expect(counts.every((d) => d.code === "apply.plan-differs" && d.severity === "error")).toBe(true);
    expect(compareEmailLists([saved], fresh([{ state: "skipped" }]), "p")[0]?.message).toBe(
      "email list young: state differs (saved: sync; fresh: skipped)",
    );
    expect(compareEmailLists([saved], undefined, "p").map((d) => d.message)).toEqual([
      "email list young: list differs (saved: e2-1 from lists/young.csv; fresh: absent from the files)",
    ]);
    expect(compareEmailLists([], fresh([{ address: "donors", list_id: "e2-2" }]), "p")[0]?.message).toBe(
      "email list donors: list differs (saved: absent; fresh: e2-2 from lists/young.csv)",
    );
  });
});

describe("--target/--exclude on email", () => {
  const list = (address: string) => ({ address }) as EmailListSpec;
  const specs: EmailSpecs = {
    lists: [list("young"), list("donors")],
    campaigns: [{ address: "news" } as EmailCampaignSpec],
  };
  const names = (s: EmailSpecs) => [s.lists.map((l) => l.address), s.campaigns.map((c) => c.address)];

  test("no selectors: everything; a list targeted: only it, campaigns left out; a project targeted: all left out", () => {
    expect(names(selectEmail(specs, [], []).specs)).toEqual([["young", "donors"], ["news"]]);
    const one = selectEmail(specs, ["young"], []);
    expect(names(one.specs)).toEqual([["young"], []]);
    expect(one.leftOut).toEqual({ lists: ["donors"], campaigns: ["news"] });
    expect(selectEmail(specs, ["test-1"], []).leftOut).toEqual({
      lists: ["young", "donors"],
      campaigns: ["news"],
    });
  });

  test("--exclude of a list leaves it out and keeps the campaigns", () => {
    const ex = selectEmail(specs, [], ["donors"]);
    expect(names(ex.specs)).toEqual([["young"], ["news"]]);
    expect(ex.leftOut).toEqual({ lists: ["donors"], campaigns: [] });
  });
});
