/** Diagnostic codes of the `policy` area (policy files and their rules). Each entry: a stable code and what it means. */
export const POLICY_CODES = {
  "policy.api-key-in-file":
    "an API key is written in a policy file (keys are read only from the environment)",
  "policy.organization-unmatched":
    "an organization the policy names (budgets, require_suppression_lists, places) matches none this run's keys see, yet is a slip of one (error: it differs only in case or spacing) or close to one (warning): the rule would apply to none of its projects",
  "policy.file-invalid": "the policy file is not valid YAML or does not match schemas/policy.schema.json",
  "policy.file-unreadable":
    "the policy file named with --policy (or the nearest campaignctl.policy.yaml found) cannot be read",
  "policy.file-misnamed":
    "a file above a campaign file looks like a misspelt policy file (Campaignctl.policy.yaml, campaignctl.polcy.yaml); it is not read, so the run stops",
  "policy.outside-repository":
    "a policy file lies above the outermost repository root (the farthest directory holding .git), where the search stops: it is not read, so the run stops (a stray .git, or a tree without its root's .git, can cut a policy off)",
  "policy.required":
    "--require-policy: no campaignctl.policy.yaml (or .yml) applies to the campaign files and no --policy FILE was given",
  "policy.capacity-loosened":
    "a campaign file (or a nearer policy file) declares a brand's daily cap or a channel's throughput looser than the policy's: a file may only tighten capacity",
  "policy.ambiguous":
    "the campaign files lead to different campaignctl.policy.yaml files (the nearest above each, up to the outermost repository root); name one with --policy. Also: two policy files (.yaml and .yml) in one directory",
  "policy.loosens-ancestor":
    "a nearer policy file (or --policy) sets a rule looser than a policy file farther up, without naming it under loosens:",
  "policy.locked":
    "a nearer policy file, or --loosen-policy, loosens a rule that a policy file farther up lists under locked:",
  "policy.loosened":
    "a rule is loosened on purpose (loosens: in a nearer policy file, or --loosen-policy); shown so that no run hides it",
  "policy.daily-cap-bypass":
    "the schedule sets daily_cap_bypass, which the policy forbids (or allows only with the label daily-cap-bypass-approved)",
  "policy.require-email-consent":
    "a row of an email list's CSV lacks consent_source or consent_at, which the policy's require_email_consent demands: the row is refused before any request",
  "policy.min-test-contacts": "the test block sends to fewer contacts than the policy requires",
  "policy.max-estimated-cost-usd":
    "the scheduled send's estimated cost is over the policy's limit per project",
  "policy.send-window":
    "the send goes out outside the policy's send window in a zone its recipients live in (the schedule's timezone for a list whose places are not declared): its start, and its whole course as the forecast sees it when the plan forecasts (half-open: the window's `to` itself is outside)",
  "policy.jurisdictions":
    "the send reaches recipients of a declared state outside the hours a state rule of the policy's `jurisdictions` allows that day, in that state's zones (over its whole course as the forecast sees it); the finding names the state, the rule, its citation and the local time, and the starts that fit",
  "policy.require-places":
    "a contact list a scheduled project sends to is not declared under the policy's `places` (where its recipients live), which the policy's require_places demands",
  "policy.require-opt-out-language":
    'the message has no opt-out instruction ("Reply STOP") and the opt-out footer is off',
  "policy.forbid-at-now": "the schedule says at: now, which the policy forbids",
  "policy.require-guards":
    "a scheduled project declares no `guard:` with a rate (max_failure_rate or max_opt_out_rate), which the policy requires",
  "policy.replies":
    "a project's reply rules break the policy's `replies` rule: an inbound it requires an answer to has none, the answer lacks the words it requires, or a rule could match one of its revocation words",
  "policy.require-suppression-lists":
    "a project that sends (state tested or scheduled) does not carry a suppression list the policy's require_suppression_lists names for every organization or for its own: its test and schedule are blocked before any write",
  "policy.require-help":
    'a project with reply rules (or, under `for: sends`, any project that sends) has no reply rule answering HELP and INFO, or its answer does not name the sender or say how to stop ("Reply STOP to opt out"), which the policy\'s require_help demands',
  "policy.budget":
    "a send would take its organization's spending past a budget of the policy (per day, week or month, on the API's clock): what the period spent (the statistics' actual cost), what is scheduled and not yet sent, and the plan's sends before it, plus its own live estimate, exceed the cap; or the spending or the estimate could not be read. The send and what is ordered after it are held",
} as const;

export type PolicyCode = keyof typeof POLICY_CODES;
