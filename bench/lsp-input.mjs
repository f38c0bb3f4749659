// The campaign files the language server is edited in: the inputs of bench/lsp.mjs (10,000
// projects, 1,000 instances) and the corpora of its randomized agreement test
// (test/lsp/corpora.ts, a few entries), made by the same builders so the bench measures what the
// test checks. Deterministic. Types: lsp-input.d.mts. Not part of campaignctl.

const pad = (n, width) => String(n).padStart(width, "0");

/**
 * A project file of `count` projects named `prefix-N`, N from `first`: merge tags, schedules in
 * December 2026 and `after` chains (to the project before, two of three). Ids are unique across
 * files of one prefix made with distinct numbers.
 */
export function projectsText(prefix = "p", count = 8, first = 1) {
  let text = `version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields: [polling_place]
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101"]
  contact_lists: [Ward 3 Likely Voters]
  test:
    contacts:
      - phone: "+15035550150"
projects:
`;
  const id = prefix === "p" ? "9b" : "9c";
  for (let n = first; n < first + count; n++)
    text += `  ${prefix}-${n}:
    id: ${id}${pad(n, 6)}-0000-4000-8000-${pad(n, 12)}
    name: Ward ${n} turnout
    message: "Hi {{first_name|friend}}, Ward ${n} votes Tuesday at {{polling_place|your polling place}}. Reply STOP to opt out"
    state: scheduled
    schedule:
      at: "2026-12-0${1 + (n % 8)}T${n % 2 === 0 ? "10" : "22"}:00:00-06:00"
      timezone: America/Chicago
${n > 1 && n % 3 !== 0 ? `    after: [${prefix}-${n - 1}]\n` : ""}`;
  return text;
}

/**
 * A template file: template `gotv` (an English and a Spanish variant with merge tags and opt-out
 * wording) sent by `count` instances, each its own organization, id, language (two in Spanish of
 * three) and polling place: the shape of issue 33's county campaigns.
 */
export function templatesText(count = 9) {
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
    campaign: GOTV 2026
    contact_lists: [Likely Voters]
    state: scheduled
    schedule: {local: "2026-12-01T10:00"}
    timezone: America/Chicago
    merge_defaults: {polling_place: your polling place}
    instances:
`;
  for (let i = 1; i <= count; i++)
    text += `      county-${pad(i, 2)}:
        organization: County ${pad(i, 2)} Democrats
        id: 9a000000-0000-4000-8000-${pad(i, 12)}
        language: ${i % 3 === 0 ? "en" : "es"}
        merge_defaults: {polling_place: County ${pad(i, 2)} Courthouse}
`;
  return text;
}
