/**
 * A test world for email: the apply world (parent organization's texting projects) plus email
 * records: email available for the child organization only; an empty email list in each
 * organization; two email campaigns of the child (one whose lists differ from the file, one whose
 * sending domain is pending). Campaign files: the parent's texts and list, the child's list and
 * campaigns; CSV files generated beside them.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { stringify } from "yaml";
import { type PlanFlags, planCommand } from "../../cli/commands/plan.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { type TestBed, virtual } from "../apply/helpers.js";
import { buildWorld, type Role } from "../apply/world.js";
import { captureIo } from "../helpers/run-cli.js";
import { CHILD_KEY, CHILD_ORG, ORG, PARENT_KEY } from "../sandbox/helpers.js";

export const CHILD_LIST = "e2000000-0000-4000-8000-0000000000c1";
export const PARENT_LIST = "e2000000-0000-4000-8000-0000000000a1";
export const OTHER_LIST = "e2000000-0000-4000-8000-0000000000f9";
export const DOMAIN_PENDING = "e3000000-0000-4000-8000-0000000000d1";
export const CAMPAIGN_DRIFT = "e4000000-0000-4000-8000-000000000001";
export const CAMPAIGN_DOMAIN = "e4000000-0000-4000-8000-000000000002";
export const CAMPAIGN_SENDING = "e4000000-0000-4000-8000-000000000003";

/** A CSV of `rows` valid rows, then the extra lines given (raw CSV lines). */
/**
 * The beds a test file starts, closed and their directories removed after each test: `const beds =
 * closedAfterEach();` at the top of the file, then `beds.push(bed)` for each one started.
 */
export function closedAfterEach(): { push(bed: TestBed): void } {
  let beds: TestBed[] = [];
  afterEach(async () => {
    for (const b of beds) {
      await b.close();
      rmSync(b.world.dir, { recursive: true, force: true });
    }
    beds = [];
  });
  return { push: (bed) => void beds.push(bed) };
}

export function csvText(rows: number, prefix: string, extra: readonly string[] = []): string {
  const lines = ["email,consent_source,consent_at,first_name,city"];
  for (let i = 0; i < rows; i++)
    lines.push(`${prefix}${i}@example.org,signup form,2026-03-01T09:30:00Z,Voter ${i},Riverside`);
  lines.push(...extra);
  return `${lines.join("\n")}\n`;
}

export interface EmailWorldOptions {
  readonly childRows: number;
  /** Raw CSV lines appended to the child's CSV. */
  readonly childExtra?: readonly string[];
  readonly parentRows?: number;
  readonly texts?: Partial<Record<Role, number>>;
  /** Describe the parent's list (in early access) in its own file (default true). */
  readonly donors?: boolean;
  /** A sending email campaign with counts and a file with its guard (status and watch). */
  readonly sending?: boolean;
  /** No organization has email (the whole key is in early access). */
  readonly noEmail?: boolean;
  /** Describe the child's two email campaigns in its file (default true). */
  readonly campaigns?: boolean;
  /** A last change to the sandbox's fixture before it starts. */
  readonly fixture?: (fixture: ReturnType<typeof buildWorld>["fixture"]) => void;
}

export async function emailBed(options: EmailWorldOptions): Promise<TestBed> {
  const world = buildWorld(options.texts ?? { test: 1 });
  const f = world.fixture;
  // Email for the child only (the example world gives it to the root organization, and so to all).
  for (const org of f.organizations ?? []) {
    delete org.email_available;
    if (org.id === CHILD_ORG) org.email_available = options.noEmail !== true;
  }
  f.email = {
    lists: [
      { id: CHILD_LIST, name: "Youth volunteers", organization_id: CHILD_ORG },
      { id: PARENT_LIST, name: "Donors", organization_id: ORG },
    ],
    domains: [{ id: DOMAIN_PENDING, domain: "mail.youngdems.example", organization_id: CHILD_ORG }],
    campaigns: [
      {
        id: CAMPAIGN_DRIFT,
        name: "Youth newsletter",
        organization_id: CHILD_ORG,
        status: "draft",
        list_ids: [CHILD_LIST],
        timezone: "America/Chicago",
      },
      {
        id: CAMPAIGN_DOMAIN,
        name: "Youth rally invite",
        organization_id: CHILD_ORG,
        status: "ready",
        list_ids: [CHILD_LIST],
        timezone: "America/Chicago",
        require_approval: true,
        approval_status: "approved",
      },
    ],
  };
  if (options.sending === true)
    f.email.campaigns?.push({
      id: CAMPAIGN_SENDING,
      name: "Youth GOTV email",
      organization_id: CHILD_ORG,
      status: "sending",
      list_ids: [CHILD_LIST],
      counts: {
        queued: 0,
        sent: 1000,
        delivered: 950,
        bounced: 50,
        complained: 2,
        unsubscribed: 10,
        opened: 400,
        clicked: 100,
        failed: 0,
      },
    });
  mkdirSync(join(world.dir, "campaign", "lists"), { recursive: true });
  if (options.sending === true)
    writeFileSync(
      join(world.dir, "campaign", "gotv-email.yaml"),
      stringify({
        version: 1,
        organization: "Riverside Young Democrats",
        email_campaigns: {
          "gotv-email": { id: CAMPAIGN_SENDING, guard: { max_bounce_rate: 0.03, min_sample: 500 } },
        },
      }),
    );
  writeFileSync(
    join(world.dir, "campaign", "lists", "young.csv"),
    csvText(options.childRows, "young", options.childExtra),
  );
  writeFileSync(
    join(world.dir, "campaign", "lists", "donors.csv"),
    csvText(options.parentRows ?? 3, "donor"),
  );
  writeFileSync(
    join(world.dir, "campaign", "young-email.yaml"),
    stringify({
      version: 1,
      organization: "Riverside Young Democrats",
      email_lists: { "young-volunteers": { id: CHILD_LIST, csv: "lists/young.csv" } },
      ...(options.campaigns === false
        ? {}
        : {
            email_campaigns: {
              "youth-newsletter": {
                id: CAMPAIGN_DRIFT,
                lists: ["young-volunteers", OTHER_LIST],
                timezone: "America/Chicago",
              },
              "rally-invite": {
                name: "Youth rally invite",
                lists: ["young-volunteers"],
                sending_domain: DOMAIN_PENDING,
                require_approval: true,
              },
            },
          }),
    }),
  );
  if (options.donors !== false)
    writeFileSync(
      join(world.dir, "campaign", "donors-email.yaml"),
      stringify({
        version: 1,
        organization: "Riverside Democrats",
        email_lists: { donors: { id: PARENT_LIST, csv: "lists/donors.csv" } },
      }),
    );
  writeFileSync(
    join(world.dir, "policy.yaml"),
    stringify({ version: 1, rules: { require_email_consent: true } }),
  );
  options.fixture?.(f);
  const sb = await startSandbox({ fixture: f, rateLimits: true });
  return {
    world,
    sb,
    io: captureIo({
      // Each organization's list goes with its own key (the child's in its variable): a parent's key
      // may not upsert into the child's list (the cross-organization rule).
      env: {
        CAMPAIGNCTL_API_KEY: PARENT_KEY,
        CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS: CHILD_KEY,
        NO_COLOR: "1",
      },
      cwd: world.dir,
      clock: () => sb.clock.nowMs(),
    }),
    close: async () => {
      await sb.close();
    },
  };
}

/**
 * `plan` run in process over the world's `campaign` directory (the bed's environment and directory,
 * the sandbox's virtual clock), its output captured.
 */
export async function planWorld(
  bed: TestBed,
  flags: Partial<PlanFlags> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo({ env: { ...bed.io.env }, cwd: bed.io.cwd, clock: bed.io.clock });
  const { clock, sleep } = virtual(bed.sb);
  const outcome = await planCommand(
    ["campaign"],
    { target: [], exclude: [], color: false, baseUrl: bed.sb.baseUrl, ...flags },
    io,
    { clock, sleep },
  );
  return { code: exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
}
