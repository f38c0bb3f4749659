/**
 * `results --organization ORG` names one organization the store has recorded, by name or id, as
 * `status --organization` names one the keys see (docs/results.md "Groups"): a name that is no
 * organization of the store (a typo, a near-miss) is an error that lists the store's organizations.
 * Before, it matched no project and printed a report of zeros, exit 0: a monthly report would say
 * nothing was sent.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { ORG } from "../sandbox/helpers.js";
import { record, show } from "./harness.js";
import { clockTo, DAY, resultsFixture, START_MS } from "./world.js";

let sb: SandboxHandle;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
  dir = mkdtempSync(join(tmpdir(), "campaignctl-results-org-"));
  expect((await record(sb, dir, [], {})).code).toBe(0);
  await clockTo(sb, START_MS + 2 * DAY);
  expect((await record(sb, dir, [], {})).code).toBe(0);
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("results --organization", () => {
  it("by name or by id, the same projects", async () => {
    const byName = await show(dir, ["--organization", "Riverside Democrats", "--json"], [], {
      organization: "Riverside Democrats",
      json: true,
    });
    const byId = await show(dir, ["--organization", ORG, "--json"], [], { organization: ORG, json: true });
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout).total.projects).toBeGreaterThan(0);
    expect(byId.stdout).toBe(byName.stdout);
  });

  it("a name the store has not recorded is an error naming the organizations it has", async () => {
    const typo = await show(dir, ["--organization", "Riverside Democrat", "--json"], [], {
      organization: "Riverside Democrat",
      json: true,
    });
    expect(typo.code).toBe(1);
    const doc = JSON.parse(typo.stdout) as { error: boolean; diagnostics: { code: string; hint: string }[] };
    expect(doc.error).toBe(true);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(["results.unknown-organization"]);
    expect(doc.diagnostics[0]?.hint).toContain(`Riverside Democrats (${ORG})`);
    const text = await show(dir, ["--organization", "riverside democrats"], [], {
      organization: "riverside democrats",
    });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("error[results.unknown-organization]");
    expect(text.stdout).toBe("");
  });
});
