/**
 * A campaign file of an organization without email (a second child of the parent, "Riverside
 * Seniors", whose own key answers 403 EMAIL_EARLY_ACCESS) beside a key whose organization has email
 * (the Young Democrats'): the merged GET /email/campaigns lists what the keys with email see, and
 * the seniors' described campaign is not among it because their organization has no email, not
 * because it does not exist. It is skipped for early access, as with the seniors' key alone; never
 * the error "no live email campaign".
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { requestLog } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { ORG } from "../sandbox/helpers.js";
import { closedAfterEach, emailBed, planWorld } from "./world.js";

const beds = closedAfterEach();

const SENIORS_ORG = "0a000000-0000-4000-8000-0000000000e5";
const SENIORS_KEY = "pc_live_sbx_rs_rw_Seniors0001";

const FILE = `version: 1
organization: Riverside Seniors
email_campaigns:
  seniors-digest:
    id: e4000000-0000-4000-8000-0000000000a7
`;

test("plan: a campaign of an organization without email is skipped for early access, though another key has email", async () => {
  const bed = await emailBed({
    childRows: 3,
    fixture: (f) => {
      f.organizations?.push({ id: SENIORS_ORG, name: "Riverside Seniors", parent_id: ORG });
      f.api_keys?.push({
        key: SENIORS_KEY,
        organization_id: SENIORS_ORG,
        type: "read-write",
        scopes: ["public:read", "public:write"],
      });
    },
  });
  beds.push(bed);
  writeFileSync(join(bed.world.dir, "campaign", "seniors-email.yaml"), FILE);
  const env = { ...bed.io.env, CAMPAIGNCTL_API_KEY_RIVERSIDE_SENIORS: SENIORS_KEY };
  const run = await planWorld({ ...bed, io: { ...bed.io, env } }, { json: true });
  checkCliDocuments(["plan", "--json"], run.stdout, bed.world.dir);
  const email = JSON.parse(run.stdout).email;
  const digest = email.campaigns.find((c: { address: string }) => c.address === "seniors-digest");
  expect(digest).toMatchObject({ state: "skipped" });
  expect(digest.diagnostics.map((d: { code: string }) => d.code)).toEqual(["email.early-access"]);
  // The seniors' key answered early access; the others listed.
  const listed = (await requestLog(bed.sb)).filter((r) => r.path.startsWith("/email/campaigns"));
  expect(listed.map((r) => r.status)).toContain(403);
  expect(listed.map((r) => r.status)).toContain(200);
  // The Young Democrats' described campaigns are still judged.
  expect(email.campaigns.some((c: { state: string }) => c.state === "checked")).toBe(true);
});
