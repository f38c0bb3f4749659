/**
 * The first-hour mistakes of issue 25 as data: each case is a campaign file text with the one error
 * validate reports for it (`code@line:column`) and a substring of its hint. Read by the tests of the
 * checks (first-hour-corpus.test.ts) and by the language server's acceptance test (test/cli/lsp-*.test.ts),
 * which publishes validate's diagnostics for each as an editor would see them.
 */
import { readFileSync } from "node:fs";

export const GOTV = readFileSync("examples/gotv.yaml", "utf8");
const LINES = GOTV.split("\n");
/** The 1-based line of the example whose trimmed text is `text`. */
const lineOf = (text: string): number => {
  const i = LINES.findIndex((l) => l.trim() === text);
  if (i < 0) throw new Error(`examples/gotv.yaml has no line ${text}`);
  return i + 1;
};
const withLine = (n: number, text: string) => LINES.map((l, i) => (i === n - 1 ? text : l)).join("\n");

export const H = "version: 1\nprojects:\n  a:\n    id: p1\n";
/** A project that can be scheduled, but for its schedule. */
const S = `${H}    message: "Hi, reply STOP to opt out"\n    contact_lists: [Ward 3]\n    phone_numbers: ["+15035550101"]\n    state: scheduled\n`;

/** [what, file text, expected `code@line:col`, a substring of the hint, a substring of the message] */
export type Case = readonly [string, string, string, string, string?];

const NAME = lineOf("name: GOTV Follow-up");
const SECOND_NUMBER = lineOf('- "+15035550102"');
export const FIRST_HOUR_ERRORS: readonly Case[] = [
  [
    "a. an unquoted numeric id",
    `${H.replace("id: p1", "id: 12345")}`,
    "campaign.yaml-unquoted-id@4:9",
    '`id: "12345"`',
    "a project id is a string",
  ],
  [
    "a. an unquoted id with leading zeros keeps them in the hint",
    `${H.replace("id: p1", "id: 0012345")}`,
    "campaign.yaml-unquoted-id@4:9",
    "leading zeros would be lost",
    "read as the number 12345",
  ],
  [
    "b. a failure rate written as a percent",
    `${H}    guard:\n      max_failure_rate: 10\n`,
    "campaign.rate-as-percent@6:25",
    "`max_failure_rate: 0.1`",
    "(0.1 for 10 %)",
  ],
  [
    "b. an opt-out rate written as 2.5 percent",
    `${H}    guard:\n      max_opt_out_rate: 2.5\n`,
    "campaign.rate-as-percent@6:25",
    "`max_opt_out_rate: 0.025`",
    "a rate is a fraction",
  ],
  [
    "c. an unclosed quote near the end of the example points at the opening quote",
    withLine(NAME, '    name: "GOTV Follow-up'),
    `campaign.unclosed-quote@${NAME}:11`,
    `add the closing " where the text ends (on line ${NAME}`,
    `to line ${LINES.length}`,
  ],
  [
    "c. an unclosed single quote",
    `${H}    name: 'GOTV\n    state: draft\n`,
    "campaign.unclosed-quote@5:11",
    "add the closing '",
  ],
  [
    "d. a sending number without its dash",
    withLine(SECOND_NUMBER, '    "+15035550102"'),
    `campaign.list-item-dash@${SECOND_NUMBER}:5`,
    '`- "+15035550102"`',
    "in the list `phone_numbers`",
  ],
  [
    "d. a test contact without its dash",
    `${H}    test:\n      contacts:\n        - phone: "+15035550150"\n        phone: "+15035550151"\n`,
    "campaign.list-item-dash@8:9",
    '`- phone: "+15035550151"`',
    "in the list `contacts`",
  ],
  [
    "e. message written as a list",
    `${H}    message:\n      - Hi there\n      - Reply STOP to opt out\n`,
    "campaign.message-not-text@6:7",
    "`message: |`",
    "a message is one text",
  ],
  [
    "e. message written as a list, one line lacking its dash",
    `${H}    message:\n      - Hi there\n      Reply STOP to opt out\n    state: draft\n`,
    "campaign.message-not-text@5:5",
    "`message: |`",
    "written as a list",
  ],
  [
    "e. message lines, one holding `: `",
    `${H}    message:\n      Hi there, polls: open 7am-7pm\n      Reply STOP to opt out\n`,
    "campaign.message-not-text@5:5",
    "`message: |`",
    "holds `: `",
  ],
];

export const FIRST_HOUR_CORPUS: readonly Case[] = [
  ["1. version 2", "version: 2\nprojects: {}\n", "campaign.bad-version@1:10", "`version: 1`"],
  ["2. no version", "projects:\n  a:\n    id: p1\n", "campaign.bad-version@1:1", "add `version: 1`"],
  [
    "3. an address with capitals and an underscore",
    "version: 1\nprojects:\n  GOTV_Reminder:\n    id: p1\n",
    "campaign.bad-address@3:3",
    "Lower-case letters, digits and dashes",
  ],
  [
    "4. state: schedule",
    `${H}    state: schedule\n`,
    "campaign.schema-enum@5:12",
    "did you mean `scheduled`?",
  ],
  [
    "5. state: Scheduled",
    `${H}    state: Scheduled\n`,
    "campaign.schema-enum@5:12",
    "did you mean `scheduled`?",
  ],
  ["6. a misspelt key", `${H}    stat: draft\n`, "campaign.unknown-key@5:5", "did you mean `state`?"],
  [
    "7. a send time without an offset",
    `${S}    schedule:\n      at: "2026-12-07 10:00"\n      timezone: America/Chicago\n`,
    "campaign.schema-format@10:11",
    "explicit offset",
  ],
  [
    "8. a timezone abbreviation",
    `${S}    schedule:\n      at: "2026-12-07T10:00:00-06:00"\n      timezone: CST\n`,
    "campaign.schema-enum@11:17",
    "America/Chicago",
  ],
  ["9. scheduled without a schedule", S, "campaign.schedule-missing@8:12", "add `schedule:"],
  [
    "10. after a misspelt address",
    `${H}    after: [gotv-remind]\n`,
    "campaign.after-unknown@5:13",
    "load the file",
  ],
  [
    "11. after written as one address",
    `${H}    after: b\n  b:\n    id: p2\n`,
    "campaign.schema-type@5:12",
    "`after: [b]`",
  ],
  [
    "12. a key twice",
    `${H}    name: x\n    name: y\n`,
    "campaign.duplicate-key@6:5",
    "YAML keeps only the last",
  ],
  ["13. channel: sms", `${H}    channel: sms\n`, "campaign.schema-enum@5:14", "10dlc, toll-free"],
  [
    "14. an id among the defaults",
    "version: 1\ndefaults:\n  id: p1\nprojects:\n  a:\n    id: p1\n",
    "campaign.unknown-key@3:3",
    "move `id` into each project",
  ],
  [
    "15. tested without a message",
    `${H}    state: tested\n    test:\n      contacts:\n        - phone: "+15035550150"\n`,
    "campaign.message-missing@5:12",
    "write the message",
  ],
  [
    "16. contact_lists as one name",
    `${H}    contact_lists: Ward 3\n`,
    "campaign.schema-type@5:20",
    "`contact_lists: [Ward 3]`",
  ],
  [
    "17. a guard with only min_sample",
    `${H}    guard:\n      min_sample: 10\n`,
    "campaign.guard-without-rate@6:7",
    "add `max_failure_rate`",
  ],
  [
    "18. a rate written as 10%",
    `${H}    guard:\n      max_failure_rate: 10%\n`,
    "campaign.rate-as-percent@6:25",
    "`max_failure_rate: 0.1`",
  ],
  [
    "19. merge_default for merge_defaults",
    "version: 1\nmerge_default:\n  first_name: friend\nprojects: {}\n",
    "campaign.unknown-key@2:1",
    "did you mean `merge_defaults`?",
  ],
  [
    "20. an empty id",
    'version: 1\nprojects:\n  a:\n    id: ""\n',
    "campaign.schema-limit@4:9",
    "id of the live project",
  ],
  ["21. no space after the colon", `${H}    state:draft\n`, "campaign.yaml-key@5:5", "write `state: draft`"],
  ["22. `=` for `:`", `${H}    state = draft\n`, "campaign.yaml-key@5:5", "write `state: draft`"],
  ["23. a `//` comment", `${H}    // the reminder\n    state: draft\n`, "campaign.yaml-key@5:5", "with `#`"],
  [
    "24. a key without its colon",
    `${H}    name GOTV\n    state: draft\n`,
    "campaign.yaml-key@5:5",
    "write `name: GOTV`",
  ],
  [
    "25. an unclosed [ list",
    `${H}    contact_lists: [Ward 3\n    state: draft\n`,
    "campaign.unclosed-bracket@5:20",
    "add `]`",
  ],
  [
    "26. two documents in one file",
    `${H}---\nversion: 1\n`,
    "campaign.multiple-documents@5:1",
    "remove the `---`",
  ],
  [
    "27. a UK test phone",
    `${H}    test:\n      contacts:\n        - phone: "+442079460958"\n`,
    "campaign.test-phone-not-nanp@7:18",
    "US/Canada number",
  ],
  [
    "28. contacts straight under the project",
    `${H}    contacts:\n      - phone: "+15035550150"\n`,
    "campaign.unknown-key@5:5",
    "test",
  ],
  [
    "29. projects written as a list",
    "version: 1\nprojects:\n  - id: p1\n",
    "campaign.schema-type@3:3",
    "Projects by address",
  ],
  [
    "30. a project at the top of the file",
    "version: 1\ngotv:\n  id: p1\n",
    "campaign.unknown-key@2:1",
    "projects",
  ],
];

const crlf = (text: string) => text.replace(/\n/g, "\r\n");
export const FIRST_HOUR_VARIANTS: readonly Case[] = [
  [
    "an unquoted id in a CRLF file",
    crlf(H.replace("id: p1", "id: 0123")),
    "campaign.yaml-unquoted-id@4:9",
    '`id: "0123"`',
  ],
  [
    "an unclosed quote in a CRLF file",
    crlf(`${H}    name: "GOTV\n    state: draft\n`),
    "campaign.unclosed-quote@5:11",
    'add the closing "',
  ],
  [
    "a list item without its dash on the last line, with no final newline",
    `${H}    contact_lists:\n      - Ward 3\n      Ward 4`,
    "campaign.list-item-dash@7:7",
    "`- Ward 4`",
  ],
  [
    "a list item without its dash in a CRLF file",
    crlf(`${H}    contact_lists:\n      - Ward 3\n      Ward 4\n    state: draft\n`),
    "campaign.list-item-dash@7:7",
    "`- Ward 4`",
  ],
  [
    "a rate written 5%",
    `${H}    guard:\n      max_opt_out_rate: 5%\n`,
    "campaign.rate-as-percent@6:25",
    "`max_opt_out_rate: 0.05`",
  ],
  ["a tab before a key", `${H}\tstate: draft\n`, "campaign.yaml-indent@5:1", "replace the tab with spaces"],
  [
    "a quote left open inside a [ ] list",
    `${H}    phone_numbers: ["+15035550101, "+15035550102"]\n`,
    "campaign.yaml-syntax@5:37",
    "a missing quote",
  ],
];
