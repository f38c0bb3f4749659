// The generated inputs of the language-server benches (lsp.mjs): deterministic campaign texts and
// the edits made to them. Not part of campaignctl.
import { CAMPAIGN_FILE_HEAD } from "./lib.mjs";

/** A project of the `projects:` inputs (merge tags, schedules, `after` chains). */
export function projectYaml(n) {
  const day = String(1 + (n % 20)).padStart(2, "0");
  const hour = String(9 + (n % 10)).padStart(2, "0");
  const after = n % 10 === 0 ? "" : `    after: [p-${n - 1}]\n`;
  return `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    name: Ward ${n % 40} turnout ${n}
    message: "Hi {{first_name|friend}}, Ward ${n % 40} votes Tuesday at {{polling_place|your polling place}}. Reply STOP to opt out"
    contact_lists: [Ward ${n % 40} Likely Voters]
    state: scheduled
    schedule:
      at: "2027-03-${day}T${hour}:00:00${Number(day) >= 14 ? "-05:00" : "-06:00"}"
      timezone: America/Chicago
${after}`;
}

/** A campaign file of the projects `from` to `to` (exclusive). */
export function projectsFile(from, to) {
  let text = `${CAMPAIGN_FILE_HEAD}  contact_lists: [Ward 3 Likely Voters]
projects:
`;
  for (let n = from; n < to; n++) text += projectYaml(n);
  return text;
}

const pad = (n, width) => String(n).padStart(width, "0");

/**
 * A campaign file of one template (`gotv`, an English and a Spanish variant with merge tags and
 * opt-out wording) sent by `instances` instances, each its own organization, id, language and
 * polling place: the shape of issue 33's county campaigns.
 */
export function templatesFile(instances) {
  let text = `version: 1
merge_defaults: {first_name: friend}
fields: [polling_place]
templates:
  gotv:
    message:
      en: "Hi {{first_name|friend}}, vote Tuesday at {{polling_place}}. Reply STOP to opt out"
      es: "Hola {{first_name|amigo}}, vota el martes en {{polling_place}}. Responde STOP para no recibir mas"
    channel: 10dlc
    brand: County Democrats
    campaign: GOTV 2027
    contact_lists: [Likely Voters]
    suppression_lists: [Do Not Text]
    state: scheduled
    schedule: {local: "2027-03-02T10:00"}
    timezone: America/Chicago
    merge_defaults: {polling_place: your polling place}
    instances:
`;
  for (let i = 1; i <= instances; i++)
    text += `      county-${pad(i, 4)}:
        organization: County ${pad(i, 4)} Democrats
        id: 9a000000-0000-4000-8000-${pad(i, 12)}
        language: ${i % 3 === 0 ? "es" : "en"}
        merge_defaults: {polling_place: County ${pad(i, 4)} Courthouse}
`;
  return text;
}
