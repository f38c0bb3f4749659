// The generated inputs of the validate benches (validate-scale.mjs, validate-one-file.mjs and their
// floors in validate-floor.mjs): deterministic campaign texts. Not part of campaignctl.
import { CAMPAIGN_FILE_HEAD } from "./lib.mjs";

const TIMEZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"];
// Standard time, and daylight time from Sunday 2027-03-14 on (the lint checks offsets against zones).
const OFFSETS = ["-05:00", "-06:00", "-07:00", "-08:00"];
const DST_OFFSETS = ["-04:00", "-05:00", "-06:00", "-07:00"];

/** `validate --now` for the scale input: before every generated schedule (March 2027). */
export const SCALE_NOW = "2027-01-15T12:00:00Z";
/** `validate --now` for the one-file input: before its schedule (2027-01-12). */
export const ONE_FILE_NOW = "2027-01-01T12:00:00Z";

function scaleProject(n, fileIndex) {
  const zone = fileIndex % TIMEZONES.length;
  const day = String(1 + (n % 20)).padStart(2, "0");
  const hour = String(9 + (n % 10)).padStart(2, "0");
  const after = n % 10 === 0 ? "" : `    after: [p-${n - 1}]\n`;
  return `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    name: Ward ${n % 40} turnout ${n}
    message: >-
      Hi {{first_name|friend}}, the Ward ${n % 40} runoff is Tuesday. Your polling place is
      {{polling_place|your usual polling place}}, open 7am-7pm. Reply STOP to opt out
    contact_lists: [Ward ${n % 40} Likely Voters]
    state: scheduled
    schedule:
      at: "2027-03-${day}T${hour}:00:00${(Number(day) >= 14 ? DST_OFFSETS : OFFSETS)[zone]}"
      timezone: ${TIMEZONES[zone]}
${after}`;
}

/**
 * The scale input: `projects` realistic projects (merge tags, folded messages, defaults, test
 * contacts, schedules, `after` chains) in `files` files, as [name, text] pairs in name order.
 */
export function scaleFiles(projects, files) {
  const perFile = Math.ceil(projects / files);
  const out = [];
  for (let f = 0; f < files; f++) {
    let text = `${CAMPAIGN_FILE_HEAD}  suppression_lists: [Do Not Text]
  test:
    contacts:
      - phone: "+15035550150"
        merge_values: {first_name: Maria, polling_place: Riverside Community Center}
      - phone: "+15035550151"
projects:
`;
    for (let n = f * perFile; n < Math.min(projects, (f + 1) * perFile); n++) text += scaleProject(n, f);
    out.push([`ward-${String(f).padStart(3, "0")}.yaml`, text]);
  }
  return out;
}

const ONE_FILE_HEADER = `${CAMPAIGN_FILE_HEAD}  contact_lists: [Ward 3 Likely Voters]
  suppression_lists: [Do Not Text]
  state: scheduled
  schedule:
    at: "2027-01-12T10:00:00-06:00"
    timezone: America/Chicago
  test:
    contacts:
      - phone: "+15035550150"
        merge_values: {first_name: Maria, polling_place: Riverside Community Center}
projects:
`;

function oneFileProject(n) {
  const hex = String(n).padStart(12, "0");
  return `  p-${n}:
    id: 9b${hex.slice(-6)}-0000-4000-8000-${hex}
    name: Ward ${n % 40} turnout ${n}
    message: Hi {{first_name|friend}}, vote Tuesday in Ward ${n % 40}. Reply STOP to opt out
`;
}

/**
 * The one-file input: small projects sharing `defaults` up to `mib` MiB (just under 10 MiB, the
 * most a campaign file may have, by default); its text and how many projects it holds.
 */
export function oneFile(mib = 9.9) {
  const limit = Math.floor(mib * 1024 * 1024);
  const parts = [ONE_FILE_HEADER];
  let bytes = Buffer.byteLength(ONE_FILE_HEADER);
  let projects = 0;
  for (;;) {
    const next = oneFileProject(projects);
    const size = Buffer.byteLength(next);
    if (bytes + size > limit) break;
    parts.push(next);
    bytes += size;
    projects++;
  }
  return { text: parts.join(""), projects, bytes };
}
