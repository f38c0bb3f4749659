/**
 * `plan` with email campaigns (in-process CLI against the sandbox): a campaign whose lists differ
 * from its file and one blocked by a pending sending domain, each reported with its fix; dashboard
 * steps listed, never planned as actions; the plan document valid against its schema; exit codes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { requestLog } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import {
  CAMPAIGN_DOMAIN,
  CAMPAIGN_DRIFT,
  CHILD_LIST,
  closedAfterEach,
  emailBed,
  OTHER_LIST,
  planWorld,
} from "./world.js";

const beds = closedAfterEach();

const plan = planWorld;

describe("plan: email campaigns checked against the files", () => {
  test("lists drift and a pending sending domain are blockers with their fix; no write is made", async () => {
    const bed = await emailBed({ childRows: 3 });
    beds.push(bed);
    const run = await plan(bed, { json: true });
    checkCliDocuments(["plan", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const email = JSON.parse(run.stdout).email;
    const byAddress = Object.fromEntries(email.campaigns.map((c: { address: string }) => [c.address, c]));
    expect(byAddress["youth-newsletter"]).toMatchObject({
      id: CAMPAIGN_DRIFT,
      state: "checked",
      status: "draft",
      drift: [{ field: "lists", file: `[${CHILD_LIST}, ${OTHER_LIST}]`, live: `[${CHILD_LIST}]` }],
      blockers: [],
    });
    const drift = byAddress["youth-newsletter"].diagnostics.find(
      (d: { code: string }) => d.code === "email.campaign-drift",
    );
    expect(drift.hint).toContain("edit the file to match, or change the campaign in the dashboard");
    expect(drift.range.start.line).toBe(11);
    expect(byAddress["youth-newsletter"].dashboard_steps).toEqual([
      "send a test in the dashboard (the API cannot test email campaigns)",
    ]);

    const rally = byAddress["rally-invite"];
    expect(rally).toMatchObject({ id: CAMPAIGN_DOMAIN, state: "checked", drift: [] });
    expect(rally.approval).toEqual({ required: true, status: "approved" });
    expect(rally.blockers).toHaveLength(1);
    expect(rally.blockers[0].code).toBe("email.domain-not-ready");
    expect(rally.blockers[0].fix).toContain(
      "dkim: add CNAME s1._domainkey.mail.youngdems.example -> s1.dkim.invalid",
    );
    expect(rally.blockers[0].fix).toContain("mail_from: add CNAME em.mail.youngdems.example");
    expect(rally.blockers[0].fix).toContain(
      "dmarc: publish a DMARC TXT record at _dmarc.mail.youngdems.example",
    );
    expect(
      rally.domain.signals.map((s: { signal: string; state: string }) => `${s.signal}:${s.state}`),
    ).toEqual(["dkim:pending", "mail_from:pending", "dmarc:pending"]);
    // The list rows are only counted; plan writes nothing.
    expect(email.lists.find((l: { address: string }) => l.address === "young-volunteers")).toMatchObject({
      state: "sync",
      rows: 3,
      to_send: 3,
      batches: 1,
    });
    expect((await requestLog(bed.sb)).filter((r) => r.method === "POST")).toEqual([]);
  }, 60_000);

  test("the human plan names the drift, the blocker's fix and the dashboard steps; --detailed-exitcode gives 3", async () => {
    const bed = await emailBed({ childRows: 3 });
    beds.push(bed);
    const run = await plan(bed, { detailedExitcode: true });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("Email campaigns:");
    expect(run.stdout).toContain(`drift lists: file [${CHILD_LIST}, ${OTHER_LIST}], live [${CHILD_LIST}]`);
    expect(run.stdout).toContain("fix: at the DNS provider of mail.youngdems.example");
    expect(run.stdout).toContain("dashboard step: send a test in the dashboard");
  }, 60_000);

  test("the Markdown report has the email section: lists with their verdict, drift, the blocker's fix", async () => {
    const bed = await emailBed({ childRows: 3 });
    beds.push(bed);
    await plan(bed, { markdown: "plan.md" });
    const md = readFileSync(join(bed.world.dir, "plan.md"), "utf8");
    const email = md.slice(md.indexOf("### Email"));
    expect(email).toContain(
      "| `young-volunteers` | Riverside Young Democrats | `campaign/lists/young.csv` | planned: apply upserts 3 rows in 1 batch | 3 | 3 | 1 | 0 |",
    );
    expect(email).toContain(
      `  - drift \`lists\`: file \`[${CHILD_LIST}, ${OTHER_LIST}]\`, live \`[${CHILD_LIST}]\``,
    );
    expect(email).toContain("Fix: at the DNS provider of mail.youngdems.example");
  }, 60_000);

  test("an organization without email: the campaigns and lists are skipped with EMAIL_EARLY_ACCESS, not errors", async () => {
    const bed = await emailBed({ childRows: 3, noEmail: true });
    beds.push(bed);
    const run = await plan(bed, { json: true });
    checkCliDocuments(["plan", "--json"], run.stdout, bed.world.dir);
    const email = JSON.parse(run.stdout).email;
    expect(email.available).toBe(false);
    expect(email.lists.map((l: { state: string }) => l.state)).toEqual(["skipped", "skipped"]);
    expect(email.campaigns.map((c: { state: string }) => c.state)).toEqual(["skipped", "skipped"]);
    expect(run.code).toBe(0);
  }, 60_000);
});

// A saved plan with email lists: test/email/saved-plan.test.ts.
