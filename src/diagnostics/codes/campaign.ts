/** Diagnostic codes of loading and validating campaign files. */
export const CAMPAIGN_CODES = {
  "campaign.file-too-large": "a campaign file is larger than campaignctl reads (10 MiB)",
  "campaign.binary-file": "a campaign file contains NUL bytes: it is not text",
  "campaign.encoding": "a campaign file is not valid UTF-8 (invalid bytes were replaced)",
  "campaign.empty-file": "a campaign file has no content (only whitespace or comments)",
  "campaign.not-campaign-file":
    "a file named on the command line is not a campaign file (Markdown, HTML, XML, JSON, plain text, a saved plan, or a policy file by its name); it is not read as YAML",
  "campaign.yaml-syntax": "the file is not well-formed YAML",
  "campaign.yaml-indent": "YAML indentation is wrong (or uses tabs)",
  "campaign.yaml-key":
    "a YAML mapping key is not allowed (multi-line, too long, a block, not a string, an alias `*k`)",
  "campaign.yaml-escape": "a double-quoted YAML string has an invalid escape sequence",
  "campaign.yaml-tag":
    "a YAML tag cannot be resolved or is misplaced (warning), or makes a value of its own type, neither a plain map, list nor scalar (`!!omap`, `!!set`, `!!binary`, a `%YAML 1.1` date; error: the file is not read)",
  "campaign.yaml-alias": "a YAML alias refers to an unknown anchor or is misused",
  "campaign.yaml-merge-key":
    "a YAML merge key (`<<` under `%YAML 1.1`, or `!!merge`): not supported, the file is not read (write the keys out, or use `defaults`)",
  "campaign.yaml-too-complex": "the YAML nests too deeply or expands too many aliases (resource exhaustion)",
  "campaign.multiple-documents": "a campaign file holds more than one YAML document",
  "campaign.duplicate-key": "a mapping has the same key twice",
  "campaign.bad-version": "the file's `version` is missing or is not 1",
  "campaign.unknown-key": "a key the campaign file format does not define",
  "campaign.missing-key": "a required key is missing",
  "campaign.schema-type": "a value has the wrong type",
  "campaign.schema-enum": "a value is not one of the allowed values",
  "campaign.schema-pattern": "a string does not have the required form (phone, URL, name)",
  "campaign.schema-format": "a date-time is malformed or lacks an explicit offset",
  "campaign.schema-limit": "a value is too short, too long, or has too few or too many items",
  "campaign.schema-unique": "a list has the same item twice",
  "campaign.schema-invalid": "a value breaks another rule of the campaign file schema",
  "campaign.bad-address": "a project address is not lower-case letters, digits and dashes",
  "campaign.duplicate-address": "two projects have the same address across the loaded files",
  "campaign.duplicate-id": "two projects describe the same live project id",
  "campaign.after-unknown": "`after` names an address no loaded file declares",
  "campaign.after-cycle": "`after` entries form a cycle",
  "campaign.schedule-missing": "`state: scheduled` without a `schedule` block",
  "campaign.message-missing":
    "a project whose state sends (`tested`, `scheduled`) does not describe its `message`",
  "campaign.contact-lists-missing":
    "`state: scheduled` without `contact_lists`: who receives it is not described",
  "campaign.test-phone-not-nanp": "a test contact's phone is not a US/Canada (+1) number; the API refuses it",
  "campaign.test-phone-repeated":
    "a test phone is listed twice in one project (it would get two test texts); the first listing is the related place",
  "campaign.yaml-unquoted-phone":
    "a phone number written without quotes: YAML reads `+15035550101` as a number",
  "campaign.ids-differ-in-case": "two project ids differ only in letter case",
  "campaign.api-key-in-file":
    "an API key is written in a campaign file (keys are read only from the environment)",
  "campaign.cr-line-endings":
    "the file breaks lines with a lone CR (old Mac style); they are read as line breaks",
  "campaign.channel-mismatch":
    "a registration of the other channel (10DLC campaign vs toll-free verification)",
  "campaign.guard-without-rate":
    "a `guard:` sets no rate (only `min_sample`): a project's would never pause anything, an email campaign's never alert",
  "campaign.yaml-unquoted-id":
    "a project id written without quotes: YAML reads `12345` as a number (and drops leading zeros)",
  "campaign.rate-as-percent":
    "a rate (`max_failure_rate`, `max_opt_out_rate`) written as a percent: a rate is a fraction from 0 to 1",
  "campaign.message-not-text":
    "a `message` written as a list or as YAML structure: a message is one text (write it under `message: |`)",
  "campaign.unclosed-quote": "a quoted string is not closed: reported at the quote that opens it",
  "campaign.unclosed-bracket":
    "a `[` list or `{` map written on one line is not closed: reported at its opening bracket",
  "campaign.list-item-dash": "a line inside a list lacks the `- ` that starts a list item",
  "campaign.template-language-unknown":
    "an instance's `language` is not one of its template's message variants (the hint names the nearest)",
  "campaign.template-timezone-missing":
    "a template's schedule is a local time but neither the instance nor the template says which `timezone` to read it in",
  "campaign.template-local-time-skipped":
    "a template's local send time does not exist in the instance's timezone (clocks spring forward over it)",
  "campaign.template-local-time-repeated":
    "a template's local send time happens twice in the instance's timezone (clocks fall back): the first is taken; the warning names both",
  "campaign.variant-tag-mismatch":
    "a merge tag one language variant of a template uses is missing from another (the other variant is the related place)",
  "campaign.variant-opt-out-missing":
    "a language variant of a template carries no opt-out wording accepted for its language (policy `opt_out_wording` can extend the list)",
  "campaign.variant-disclaimer-missing":
    "a language variant of a template lacks the paid-for-by disclaimer another variant carries",
  "campaign.variant-segments-differ":
    "a language variant costs more segments per recipient than another because of characters GSM-7 cannot carry (named, with their GSM-7 spelling)",
} as const;

export type CampaignCode = keyof typeof CAMPAIGN_CODES;
