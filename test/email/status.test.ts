/**
 * `status` after the send: the email campaigns the files describe with their counts and rates, and
 * a tripped guard as an alert naming the dashboard step (the API cannot pause), exit 1; the JSON
 * document valid against its schema.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type StatusFlags, statusCommand } from "../../cli/commands/status.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { type TestBed, virtual } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { captureIo } from "../helpers/run-cli.js";
import { parseCsv } from "../status/csv.js";
import { CAMPAIGN_SENDING, closedAfterEach, emailBed } from "./world.js";

const beds = closedAfterEach();

async function status(bed: TestBed, flags: Partial<StatusFlags>) {
  const io = captureIo({ env: { ...bed.io.env }, cwd: bed.io.cwd, clock: bed.io.clock });
  const v = virtual(bed.sb);
  const outcome = await statusCommand(
    ["campaign/gotv-email.yaml"],
    { baseUrl: bed.sb.baseUrl, color: false, ...flags },
    io,
    {
      clock: v.clock,
      sleep: v.sleep,
    },
  );
  return { code: exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
}

describe("status: email campaigns after the send", () => {
  test("counts and rates; a tripped guard alerts with the dashboard step and exit 1", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    const run = await status(bed, { json: true });
    checkCliDocuments(["status", "--json"], run.stdout, bed.world.dir);
    expect(run.code).toBe(1);
    const [c] = JSON.parse(run.stdout).email.campaigns;
    expect(c).toMatchObject({ address: "gotv-email", id: CAMPAIGN_SENDING, status: "sending" });
    expect(c.rates).toEqual({
      delivery: 0.95,
      bounce: 0.05,
      complaint: 0.0021,
      unsubscribe: 0.0105,
      open: 0.4211,
      click: 0.1053,
    });
    expect(c.tripped).toEqual([{ rate: "bounce", value: 0.05, limit: 0.03 }]);
    expect(run.stderr).toContain("error[email.guard-tripped]");
    expect(run.stderr).toContain(
      'pause it in the dashboard now (Email > Campaigns > "Youth GOTV email" > Pause)',
    );

    const text = await status(bed, {});
    expect(text.stdout).toContain(
      "gotv-email (sending): sent 1,000, delivered 950 (95.0%), bounced 50 (5.0%), complaints 2 (0.2%), unsubscribed 10 (1.1%), opened 42.1%, clicked 10.5%  GUARD TRIPPED",
    );
  }, 60_000);

  test("--format csv: the email columns after the texting ones, one email_campaign row; --markdown: an Email campaigns table and the alert", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    const csv = await status(bed, { format: "csv", markdown: "out/status.md" });
    expect(csv.code).toBe(1);
    const [header, ...rows] = parseCsv(csv.stdout);
    expect(header?.slice(0, 3)).toEqual(["level", "organization_id", "organization"]);
    expect(header?.slice(-13)).toEqual([
      "email_campaign_id",
      "queued",
      "bounced",
      "complained",
      "unsubscribed",
      "opened",
      "clicked",
      "bounce_rate",
      "complaint_rate",
      "unsubscribe_rate",
      "open_rate",
      "click_rate",
      "guard_tripped",
    ]);
    const records = rows.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i]])));
    expect(rows.every((r) => r.length === header?.length)).toBe(true);
    expect(records.map((r) => r.level)).toEqual(["total", "email_campaign"]);
    expect(records[0]?.email_campaign_id).toBe("");
    expect(records[1]).toMatchObject({
      address: "gotv-email",
      name: "Youth GOTV email",
      status: "sending",
      project_id: "",
      email_campaign_id: CAMPAIGN_SENDING,
      sent: "1000",
      delivered: "950",
      bounced: "50",
      delivery_rate: "0.9500",
      bounce_rate: "0.0500",
      complaint_rate: "0.0021",
      unsubscribe_rate: "0.0105",
      open_rate: "0.4211",
      click_rate: "0.1053",
      guard_tripped: "bounce",
      opt_out_rate: "",
    });

    const md = readFileSync(join(bed.world.dir, "out", "status.md"), "utf8");
    expect(md).toContain("### Email campaigns");
    expect(md).toContain(
      "| `gotv-email` (Youth GOTV email) | sending | 1,000 | 950 | 50 | 2 | 10 | 400 | 100 | 95.0% | 5.0% | 0.2% | 1.1% | 42.1% | 10.5% | **GUARD TRIPPED**: bounce 5.0% > 3.0% |",
    );
    expect(md).toContain("email.guard-tripped");
    expect(md).toContain("Pause");
  }, 60_000);
});
