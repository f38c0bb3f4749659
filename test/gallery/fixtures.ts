/**
 * Campaign files for the gallery tests, loaded through the real loader from a temp directory.
 * `UCS2_YAML` exercises every value source (contact, inline fallback, organization default, empty),
 * characters that force UCS-2 (in a contact's value and in a fallback), the opt-out footer, a
 * schedule, a guard, and user text with HTML specials. `UCS2_YAML` is also rendered in the browser test
 * beside the campaign files of test/gallery/fixtures/ (`galleryWorkspace`).
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import type { ProjectSpec } from "../../src/campaign/model.js";

export const UCS2_YAML = `version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
  county: Riverside
fields: [place, team, county]
projects:
  ucs2-welcome:
    id: 9a000000-0000-4000-8000-0000000000aa
    name: "Welcome <script>alert(1)</script>"
    channel: 10dlc
    brand: Riverside Democrats
    campaign: GOTV 2026
    phone_numbers: ["+15035550101"]
    message: "Chào {{first_name|bạn}}! Meet {{team|the team}} at {{place}} in {{county}} county <b>today</b>."
    contact_lists: [Ward 3 Likely Voters]
    opt_out_footer: true
    state: scheduled
    test:
      contacts:
        - phone: "+15035550160"
          merge_values:
            first_name: Đặng
            place: the library
    schedule:
      at: "2036-12-08T09:30:00-08:00"
      timezone: America/Los_Angeles
    guard:
      max_failure_rate: 0.05
      max_opt_out_rate: 0.015
`;

export const MMS_YAML = `version: 1
projects:
  flyer-blast:
    id: 9a000000-0000-4000-8000-000000000006
    phone_numbers: ["+18445550103"]
    message: "Rally Saturday at noon, see the flyer! Reply STOP to opt out"
    media: [rally-flyer.png, d1000000-0000-4000-8000-000000000009]
    contact_lists: [Volunteer Prospects]
    state: tested
`;

/** Writes `files` into a fresh temp directory and returns it. */
export function workspace(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-gallery-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The projects of `files`, loaded by the real loader; throws on a load error (a broken fixture). */
export function loadProjects(files: Readonly<Record<string, string>>): ProjectSpec[] {
  const dir = workspace(files);
  const loaded = loadCampaign(Object.keys(files), dir);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`fixture does not load: ${JSON.stringify(errors)}`);
  return [...loaded.campaign.projects];
}

/** The browser test's own campaign files: a copy of examples/ (and its policy) with schedules in 2036. */
const GALLERY_FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/**
 * The arguments that render the browser test's gallery in a `galleryWorkspace()`, to `gallery/`.
 * `--now` is not among them: the caller pins the clock (the gallery must not depend on it).
 */
export const GALLERY_ARGS = ["preview", "ucs2.yaml", "campaign/", "--html", "gallery"] as const;

/**
 * The saved plan the browser test's gallery is built from, as CI builds its artifact: the embedded
 * sandbox's plan of `campaign/` with its forecast (blocked by drift: the copy's texts are not the
 * sandbox's, and the UCS-2 project is not in the plan), saved to `plan.json`. Exits 1 (drift), still
 * writing the file. The forecast gives the gallery its timeline: the copy's cap of 30 pauses both
 * GOTV sends.
 */
export const PLAN_ARGS = ["plan", "--sandbox", "campaign/", "--forecast", "--out", "plan.json"] as const;

/** {@link GALLERY_ARGS} with the saved plan of {@link PLAN_ARGS}: offline, with the plan's figures. */
export const GALLERY_PLAN_ARGS = [...GALLERY_ARGS, "--plan", "plan.json"] as const;

/** A fresh temp directory with `ucs2.yaml` and test/gallery/fixtures/ copied to `campaign/`. */
export function galleryWorkspace(): string {
  const dir = workspace({ "ucs2.yaml": UCS2_YAML });
  cpSync(GALLERY_FIXTURES, join(dir, "campaign"), { recursive: true });
  return dir;
}
