/**
 * The generated many-organization world (issue 26) for tests: the same world
 * `scripts/gen-org-world.mjs` writes, built in-process, started in a sandbox, with its campaign file
 * written to a temp directory. One source: src/sandbox/fixture/generate-world.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import {
  generateOrgWorld,
  type OrgWorld,
  type OrgWorldOptions,
} from "../../src/sandbox/fixture/generate-world.js";
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export type { GeneratedOrganization, OrgWorld } from "../../src/sandbox/fixture/generate-world.js";
export {
  generateOrgWorld,
  organizationSlug,
  WORLD_DO_NOT_TEXT,
  WORLD_LIKELY_VOTERS,
  WORLD_MESSAGES,
  WORLD_TEMPLATE,
  worldKeyEnvironment,
} from "../../src/sandbox/fixture/generate-world.js";

/** Starts a sandbox serving `world` (rate limits off unless asked, as the other sandbox tests). */
export function startOrgWorld(world: OrgWorld, options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ rateLimits: false, ...options, fixture: structuredClone(world.fixture) });
}

/** Writes the world's campaign file as `<dir>/campaign/gotv.yaml` in a new temp dir; returns the dir. */
export function writeWorldCampaign(world: OrgWorld, prefix = "campaignctl-org-world-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, "campaign"));
  writeFileSync(join(dir, "campaign", "gotv.yaml"), stringify(world.campaign, { lineWidth: 0 }));
  return dir;
}

/** Builds a world (a small one unless told). */
export function orgWorld(options: Partial<OrgWorldOptions> = {}): OrgWorld {
  return generateOrgWorld({ orgs: 3, projects: 4, ...options });
}
