/**
 * The texts `campaignctl init` writes that are its own (the schemas and the CI pipelines are copied
 * from the package at run time). Pure. The example campaign describes a project of the embedded
 * sandbox's example world (examples/sandbox.yaml, examples/README.md), exactly as it is live, so
 * `campaignctl plan --sandbox campaigns/` plans it clean: one test to send, nothing blocked.
 */
import { modelineText } from "../output/schema-reference.js";

/** campaigns/example.yaml; `schema` is its modeline's `$schema`. */
export function exampleCampaign(schema: string): string {
  return `# ${modelineText(schema)}
#
# An example campaign file, written by \`campaignctl init\`. It describes a project of the embedded
# sandbox's example world, so you can try everything without an API key and without texting anyone:
#
#   campaignctl validate campaigns/
#   campaignctl preview campaigns/ --contact first_name=Maria
#   campaignctl plan --sandbox campaigns/
#
# For your own account, delete this file and write your live projects' files with
# \`campaignctl import --all --out campaigns/\`. Every key a project may have: docs/campaign-files.md.
version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields:
  - polling_place

projects:
  # The address (gotv-reminder) is yours to choose; the id is the live project's (the API cannot
  # create projects: they are made in the dashboard and adopted with \`campaignctl import\`).
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    name: GOTV Reminder
    channel: 10dlc
    brand: Riverside Democrats
    campaign: GOTV 2026
    phone_numbers:
      - "+15035550101"
      - "+15035550102"
    message: >-
      Hi {{first_name|friend}}, the Ward 3 runoff is tomorrow, Tue Dec 8. Polls are open 7am-7pm
      at {{polling_place|your polling place}}. Reply STOP to opt out
    contact_lists:
      - Ward 3 Likely Voters
    suppression_lists:
      - Do Not Text
    # draft: nothing to send; tested: send the test below; scheduled: test, then the schedule.
    state: tested
    test:
      contacts:
        - phone: "+15035550150" # E.164, quoted; US and Canada numbers only
          merge_values:
            first_name: Maria
            polling_place: Riverside Community Center
`;
}

/**
 * The starter policy's rules: the safe defaults docs/policy.md documents ("A starter policy"),
 * each with what it keeps from happening. Green on a campaign just imported once its reviewers'
 * phones are under `defaults: test:` (the README's walkthrough), so the shipped pipelines, which
 * pass `--require-policy`, pass from their first run. docs/policy.md shows this text; a test
 * keeps the two equal.
 */
export const STARTER_POLICY = `version: 1
rules:
  # Never run past a brand's daily carrier cap: over-cap messages may fail and are still billed.
  daily_cap_bypass: forbid
  # Every sending project's test goes to at least one reviewer's phone (2: a second reviewer).
  # A project imported already scheduled needs one too: list your reviewers under defaults: test:.
  min_test_contacts: 1
  # No single project may cost more than this (the API's estimate, checked by plan and apply).
  max_estimated_cost_usd: 500
  # Sends start between 9am and 8pm in the schedule's own timezone.
  send_window: { from: "09:00", to: "20:00" }
  # The message says how to opt out ("Reply STOP to opt out"), or the opt-out footer is on.
  require_opt_out_language: true
  # Every send time is reviewed: no \`at: now\`.
  forbid_at_now: true
  # Every email list row names where and when its consent was given (consent_source, consent_at).
  require_email_consent: true
  # Stricter, once your files are ready for them:
  # require_guards: true                          # every scheduled project has a guard (watch)
  # forecast_errors: [cap-pause, past-deadline]   # these forecast findings block the send
`;

/** campaigns/campaignctl.policy.yaml; `schema` is its modeline's `$schema`. */
export function policyFile(schema: string): string {
  return `# ${modelineText(schema)}
#
# Your organization's texting policy, enforced by campaignctl on every validate, plan and apply of
# the campaign files in this directory and below it. A violation blocks the project's test and
# schedule; a pause is never blocked. The shipped pipelines pass --require-policy: keep this file.
# These are campaignctl's safe defaults; edit the rules to yours (every rule: docs/policy.md).
${STARTER_POLICY}`;
}

/** .gitignore: what campaignctl writes that is not reviewed in git. */
export const GITIGNORE = `# campaignctl: the read cache, the embedded sandbox's world and the apply journals
.campaignctl/
# Saved plans and reports (CI keeps them as artifacts)
plan.json
plan.md
apply.md
apply.xml
gallery/
`;
