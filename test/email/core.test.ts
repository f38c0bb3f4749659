/** The pure email core: CSV row verdicts, the duplicate index, batch keys, email campaign judgement. */
import { describe, expect, test } from "vitest";
import { csvPathOf } from "../../src/campaign/email-spec.js";
import type { EmailCampaign, SendingDomain } from "../../src/contract/resources.js";
import { batchKey } from "../../src/email/batch-key.js";
import { DuplicateIndex } from "../../src/email/duplicate-index.js";
import { DEFAULT_COLUMNS, type EmailCampaignSpec, type EmailListSpec } from "../../src/email/model.js";
import { checkRow, readHeader } from "../../src/email/row-check.js";
import { checkEmailCampaign } from "../../src/plan/email-campaign.js";

const origin = { line: 1, column: 1, offset: 0 };
const range = { file: "c.yaml", start: origin, end: origin };
const list: EmailListSpec = {
  address: "people",
  file: "c.yaml",
  id: "el_1",
  csv: "people.csv",
  csvPath: "people.csv",
  columns: DEFAULT_COLUMNS,
  range,
  csvRange: range,
  idRange: range,
};

describe("row verdicts", () => {
  const header = readHeader(["email", "consent_source", "consent_at", "first_name", "zip"], list);
  if (!header.ok) throw new Error("header");
  const row = (cells: string[], line: number, seen = new DuplicateIndex(), consent = false) =>
    checkRow(cells, { firstLine: line, lastLine: line, offset: 0 }, header.plan, list, consent, seen);

  test("a valid row is sent with its merge fields; empty cells are left out", () => {
    expect(row(["a@example.org", "form", "2026-03-01T09:30:00Z", "Ann", ""], 2)).toEqual({
      kind: "send",
      line: 2,
      contact: {
        email: "a@example.org",
        fields: { first_name: "Ann" },
        consent_source: "form",
        consent_at: "2026-03-01T09:30:00Z",
      },
    });
  });

  test("limits: the longest valid address (318: 64 @ 253) passes, 321 characters are refused as too long; consent_source 255 passes, 256 is refused", () => {
    const local = "a".repeat(64);
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(57)}.org`;
    const longest = `${local}@${domain}`;
    expect(longest.length).toBe(318);
    expect(row([longest, "", "", "", ""], 2).kind).toBe("send");
    const over = row([`xxx${longest}`, "", "", "", ""], 3);
    expect(over.kind === "refuse" && over.diagnostics.map((d) => d.code)).toEqual(["email.address-too-long"]);
    expect(row(["a@example.org", "s".repeat(255), "", "", ""], 4).kind).toBe("send");
    const long = row(["a@example.org", "s".repeat(256), "", "", ""], 5);
    expect(long.kind === "refuse" && long.diagnostics.map((d) => d.code)).toEqual([
      "email.consent-source-too-long",
    ]);
  });

  test("date-times need an offset; impossible dates are refused", () => {
    for (const bad of ["2026-03-01T09:30:00", "2026-02-30T09:30:00Z", "yesterday", "2026-03-01"]) {
      const v = row(["a@example.org", "form", bad, "", ""], 2);
      expect(v.kind === "refuse" && v.diagnostics.map((d) => d.code), bad).toEqual([
        "email.invalid-consent-at",
      ]);
    }
    expect(row(["a@example.org", "form", "2026-03-01T09:30:00-05:00", "", ""], 2).kind).toBe("send");
  });

  test("a repeated address (any case) names the first line; consent is required only under the policy", () => {
    const seen = new DuplicateIndex();
    expect(row(["Ann@Example.org", "", "", "", ""], 2, seen).kind).toBe("send");
    const again = row(["ann@example.ORG", "", "", "", ""], 9, seen);
    expect(again.kind === "refuse" && again.diagnostics[0]?.message).toBe(
      'line 9: "ann@example.ORG" repeats the address of line 2',
    );
    const strict = row(["b@example.org", "", "", "", ""], 3, new DuplicateIndex(), true);
    expect(strict.kind === "refuse" && strict.diagnostics.map((d) => d.code)).toEqual([
      "policy.require-email-consent",
    ]);
  });
});

describe("the duplicate index", () => {
  test("remembers 200,000 distinct addresses across growth and finds each repeat", () => {
    const index = new DuplicateIndex();
    let fresh = 0;
    for (let i = 0; i < 200_000; i++) if (index.firstLine(`v${i}@example.org`, i + 2) === undefined) fresh++;
    expect(fresh).toBe(200_000);
    expect(index.size).toBe(200_000);
    expect(index.firstLine("V123456@EXAMPLE.ORG", 1)).toBe(123_458);
    expect(index.firstLine("v0@example.org", 1)).toBe(2);
  });
});

describe("batch keys", () => {
  test("the same list and content give the same key; any change gives another", () => {
    const a = { email: "a@example.org" };
    const b = { email: "b@example.org", fields: { x: "1" } };
    const key = batchKey("el_1", [a, b]);
    expect(
      batchKey("el_1", [{ email: "a@example.org" }, { fields: { x: "1" }, email: "b@example.org" }]),
    ).toBe(key);
    expect(batchKey("el_2", [a, b])).not.toBe(key);
    expect(batchKey("el_1", [b, a])).not.toBe(key);
    expect(key).toMatch(/^cc1-[A-Za-z0-9_-]{43}$/);
  });
});

describe("csv paths", () => {
  test("relative to the campaign file, as its own path is written", () => {
    expect(csvPathOf("campaign/email.yaml", "lists/a.csv")).toBe("campaign/lists/a.csv");
    expect(csvPathOf("email.yaml", "../a.csv")).toBe("../a.csv");
    expect(csvPathOf("campaign/email.yaml", "/data/a.csv")).toBe("/data/a.csv");
  });
});

describe("email campaign judgement", () => {
  const live: EmailCampaign = {
    id: "ec_1",
    sender_identity_id: "snd_1",
    tracking_domain_id: "",
    name: "Newsletter",
    status: "awaiting_approval",
    list_ids: ["el_1"],
    suppression_list_ids: [],
    tracking_domain: { id: "", domain: "", status: "active" },
    require_approval: true,
    recipient_policy: "max_reach",
    approval_status: "pending",
    last_tested_at: "2026-11-30T10:00:00Z",
    scheduled_at: "2026-12-05T15:00:00Z",
    started_at: null,
    completed_at: null,
    created_at: "2026-11-01T10:00:00Z",
    updated_at: "2026-11-01T10:00:00Z",
    refcode: "",
    source_code: "",
    timezone: "America/Chicago",
    pause_reason: "",
    audience_count: 0,
    counts: {
      queued: 0,
      sent: 0,
      delivered: 0,
      bounced: 0,
      complained: 0,
      unsubscribed: 0,
      opened: 0,
      clicked: 0,
      failed: 0,
    },
    blocked: [{ code: "LIST_EMPTY", message: "a list of the campaign has no contacts" }],
  };
  const spec: EmailCampaignSpec = {
    address: "news",
    file: "c.yaml",
    name: "Newsletter",
    lists: ["people"],
    sender: "snd_2",
    schedule: { at: "2026-12-05T09:00:00-06:00" },
    range,
    keyRanges: {},
  };
  const domain: SendingDomain = {
    id: "dom_1",
    domain: "mail.example.org",
    status: "pending",
    dns_records: [
      { type: "CNAME", name: "s1._domainkey.mail.example.org", value: "dkim.invalid", purpose: "dkim" },
    ],
    verification: { dkim: "pending", mail_from: "verified", dmarc: "pending" },
    error_message: "",
    last_checked_at: null,
    created_at: "2026-11-01T10:00:00Z",
    updated_at: "2026-11-01T10:00:00Z",
  };

  test("drift by field (addresses resolved; one instant written two ways is no drift), blocked reasons, approval, the domain per signal", () => {
    const check = checkEmailCampaign(spec, [live], new Map([["people", "el_1"]]), { kind: "read", domain });
    expect(check.drift).toEqual([{ field: "sender", file: "snd_2", live: "snd_1" }]);
    expect(check.blockers.map((b) => b.code)).toEqual([
      "email.campaign-blocked",
      "email.awaiting-approval",
      "email.domain-not-ready",
    ]);
    expect(check.blockers[2]?.fix).toBe(
      "at the DNS provider of mail.example.org: dkim: add CNAME s1._domainkey.mail.example.org -> dkim.invalid; dmarc: publish a DMARC TXT record at _dmarc.mail.example.org; then verify the domain in the dashboard",
    );
    expect(check.dashboard_steps).toEqual(["approve it in the dashboard"]);
  });

  test("a name that matches two campaigns is ambiguous; an unknown id is not found", () => {
    expect(checkEmailCampaign(spec, [live, { ...live, id: "ec_2" }], new Map(), undefined).state).toBe(
      "ambiguous",
    );
    expect(checkEmailCampaign({ ...spec, id: "ec_9" }, [live], new Map(), undefined).state).toBe("not-found");
  });
});
