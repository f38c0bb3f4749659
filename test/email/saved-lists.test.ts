/**
 * The pure checks behind `apply PLANFILE` for its inputs (src/apply/stale.ts: campaign, policy and
 * CSV files by sha256) and its email lists (src/apply/saved-email.ts), and the email side of
 * `--target`/`--exclude` (src/plan/email-select.ts): codes and messages for each difference.
 */
import { describe, expect, test } from "vitest";
import { compareEmailLists } from "../../src/apply/saved-email.js";
import { compareFiles, type FileNow } from "../../src/apply/stale.js";
import type { EmailCampaignSpec, EmailListSpec, EmailSpecs } from "../../src/email/model.js";
import { emailLeftOutNote, selectEmail } from "../../src/plan/email-select.js";
import type { EmailListItem } from "../../src/plan/items.js";
import type { Plan } from "../../src/plan/types.js";

const A = "a".repeat(64);
const B = "b".repeat(64);

const LIST: EmailListItem = {
  address: "young",
  list_id: "e2-1",
  csv: "lists/young.csv",
  organization: "Riverside Young Democrats",
  sha256: A,
  state: "sync",
  verdict: "planned",
  reason: "apply upserts 9 rows in 1 batch",
  readable: true,
  rows: 10,
  to_send: 9,
  refused: 1,
  batches: 1,
  refused_by_code: {},
  diagnostics: [],
  more: 0,
};

/** A plan with the given email lists (and their CSVs among its files); what these checks read of one. */
function planWith(lists: Partial<EmailListItem>[] | undefined): Plan {
  const items = (lists ?? []).map((l) => ({ ...LIST, ...l }));
  return {
    files: [
      { path: "campaign.yaml", sha256: A, kind: "campaign" },
      { path: "campaignctl.policy.yaml", sha256: A, kind: "policy" },
      ...items.map((l) => ({ path: l.csv, sha256: l.sha256 ?? A, kind: "csv" as const })),
    ],
    ...(lists === undefined
      ? {}
      : { email: { available: true, lists: items, campaigns: [], diagnostics: [] } }),
  } as unknown as Plan;
}

describe("a saved plan's inputs: one check by sha256 (campaign, policy and CSV files alike)", () => {
  const all = (kind: FileNow["kind"] | "changed", changed: string): Map<string, FileNow> =>
    new Map(
      ["campaign.yaml", "campaignctl.policy.yaml", "lists/young.csv"].map((path) => [
        path,
        path !== changed
          ? { kind: "found" as const, sha256: A }
          : kind === "changed"
            ? { kind: "found" as const, sha256: B }
            : kind === "missing"
              ? { kind: "missing" as const }
              : { kind: "unreadable" as const, message: "EACCES" },
      ]),
    );
  const saved = planWith([{}]);

  test("the same bytes pass; a changed CSV or policy file refuses, named as what it is", () => {
    expect(compareFiles(saved, all("found", ""), "plan.json")).toEqual([]);
    const [csv] = compareFiles(saved, all("changed", "lists/young.csv"), "plan.json");
    expect(csv?.code).toBe("apply.files-changed");
    expect(csv?.message).toBe(
      "email list young: its CSV lists/young.csv changed since the plan was made (sha256 aaaaaaaaaaaa in the plan, bbbbbbbbbbbb now)",
    );
    expect(csv?.hint).toContain("campaignctl plan --out plan.json");
    expect(
      compareFiles(saved, all("changed", "campaignctl.policy.yaml"), "plan.json").map((d) => d.message),
    ).toEqual([
      "the policy file campaignctl.policy.yaml changed since the plan was made (sha256 aaaaaaaaaaaa in the plan, bbbbbbbbbbbb now)",
    ]);
  });

  test("a missing or unreadable input refuses", () => {
    expect(compareFiles(saved, all("missing", "lists/young.csv"), "p").map((d) => d.message)).toEqual([
      "email list young: its CSV lists/young.csv, read when the plan was made, is missing",
    ]);
    const unreadable = compareFiles(saved, all("unreadable", "campaignctl.policy.yaml"), "p");
    expect(unreadable.map((d) => d.code)).toEqual(["apply.file-missing"]);
    expect(unreadable[0]?.message).toContain("(EACCES)");
  });
});

describe("the email lists made again must be the ones reviewed", () => {
  const saved = planWith([{}]);
  test("each field, a list gone, a list new", () => {
    expect(compareEmailLists(saved, planWith([{}]), "plan.json")).toEqual([]);
    const counts = compareEmailLists(saved, planWith([{ rows: 11, to_send: 10 }]), "plan.json");
    expect(counts.map((d) => d.message)).toEqual([
      "email list young: rows differs (saved: 10; fresh: 11)",
      "email list young: to_send differs (saved: 9; fresh: 10)",
    ]);
    expect(counts.every((d) => d.code === "apply.plan-differs" && d.severity === "error")).toBe(true);
    expect(
      compareEmailLists(saved, planWith([{ state: "skipped", verdict: "skipped" }]), "p").map(
        (d) => d.message,
      ),
    ).toEqual([
      "email list young: state differs (saved: sync; fresh: skipped)",
      "email list young: verdict differs (saved: planned; fresh: skipped)",
    ]);
    expect(compareEmailLists(saved, planWith(undefined), "p").map((d) => d.message)).toEqual([
      "email list young: list differs (saved: e2-1 from lists/young.csv; fresh: absent from the files)",
    ]);
    expect(
      compareEmailLists(planWith(undefined), planWith([{ address: "donors", list_id: "e2-2" }]), "p")[0]
        ?.message,
    ).toBe("email list donors: list differs (saved: absent; fresh: e2-2 from lists/young.csv)");
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

  test("what is left out is said once, as a note; nothing left out, no note", () => {
    expect(emailLeftOutNote(specs, [], [])).toBeUndefined();
    expect(emailLeftOutNote(specs, [], ["donors"])).toBe(
      "note: --target/--exclude leave the email lists donors out of this run\n",
    );
    expect(emailLeftOutNote(specs, ["young"], [])).toContain(
      "the email lists donors and the email campaigns news out of this run (name an email list's address",
    );
  });
});
