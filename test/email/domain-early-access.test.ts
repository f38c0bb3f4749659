/**
 * A listed email campaign (a key whose organization has email sees it) whose `sending_domain` no key
 * with email can read, with a key of an organization without email beside it: the domain's read
 * answers 404 from the one key and 403 EMAIL_EARLY_ACCESS from the other, and which answers last
 * depends on the order of the keys. Either way the campaign is blocked (its sending domain could not
 * be read), never skipped as if its organization had no email (a wrong id switched its checks off).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { requestLog } from "../apply/helpers.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { CHILD_KEY, PARENT_KEY } from "../sandbox/helpers.js";
import { CAMPAIGN_DOMAIN, closedAfterEach, DOMAIN_PENDING, emailBed, planWorld } from "./world.js";

const beds = closedAfterEach();
/** A sending domain no organization has (a typo in the file). */
const GHOST_DOMAIN = "e3000000-0000-4000-8000-0000000000d9";

/** The keys in either order: the child's (email) as the default key, or the parent's (no email). */
const ORDERS = {
  "the child's key first": {
    CAMPAIGNCTL_API_KEY: CHILD_KEY,
    CAMPAIGNCTL_API_KEY_RIVERSIDE_DEMOCRATS: PARENT_KEY,
  },
  "the parent's key first": {
    CAMPAIGNCTL_API_KEY: PARENT_KEY,
    CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS: CHILD_KEY,
  },
} as const;

describe("plan: a listed email campaign whose sending domain no key with email can read", () => {
  for (const [order, keys] of Object.entries(ORDERS))
    test(`${order}: blocked at its sending_domain, never skipped for early access`, async () => {
      const bed = await emailBed({ childRows: 3 });
      beds.push(bed);
      const file = join(bed.world.dir, "campaign", "young-email.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace(DOMAIN_PENDING, GHOST_DOMAIN));
      // The bed's environment with only these two keys, in this order.
      const env = { ...bed.io.env, CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS: undefined, ...keys };
      const run = await planWorld({ ...bed, io: { ...bed.io, env } }, { json: true });
      checkCliDocuments(["plan", "--json"], run.stdout, bed.world.dir);
      expect(run.code).toBe(1);
      const email = JSON.parse(run.stdout).email;
      const rally = email.campaigns.find((c: { address: string }) => c.address === "rally-invite");
      expect(rally).toMatchObject({ id: CAMPAIGN_DOMAIN, state: "checked", verdict: "blocked" });
      const codes = rally.diagnostics.map((d: { code: string }) => d.code);
      expect(codes).toContain("email.domain-not-ready");
      expect(codes).not.toContain("email.early-access");
      const d = rally.diagnostics.find((x: { code: string }) => x.code === "email.domain-not-ready");
      expect(d).toMatchObject({
        severity: "error",
        range: { file: "campaign/young-email.yaml", start: { line: 18 } },
      });
      expect(d.message).toContain(`the sending domain ${GHOST_DOMAIN} could not be read`);
      // Both keys were asked: the one with email answered 404, the one without 403.
      const reads = (await requestLog(bed.sb)).filter((r) => r.path === `/email/domains/${GHOST_DOMAIN}`);
      expect(reads.map((r) => r.status).sort()).toEqual([403, 404]);
    });
});
