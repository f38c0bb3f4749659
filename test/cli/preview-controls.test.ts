/**
 * Control characters written into the campaign files (YAML's `\e`, `\r`, `\x9b`) never reach the
 * terminal raw: `preview`'s text shows each as U+FFFD (the cost line names it by code point), and
 * `validate`'s non-GSM hint names it in words and by code point. Before, `\e[8m` in a message hid
 * the text after it on the reviewer's terminal (and `\r` wrote over the start of the line), while
 * recipients get it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const CAMPAIGN = String.raw`version: 1
projects:
  p1:
    id: 9a000000-0000-4000-8000-000000000009
    channel: 10dlc
    message: "Hi \e[8mhidden\e[0m {{first_name|x}}.\rVote\x9b2J. Reply STOP to opt out"
    state: draft
    replies:
      rules:
        - name: where
          keywords: [where]
          answer: "At \e[8mCity Hall\e[0m. Reply STOP to opt out"
`;
/** A control character other than the line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

test("preview and validate show control characters from the files, never print them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-controls-"));
  writeFileSync(join(dir, "c.yaml"), CAMPAIGN);
  const preview = await runCli(["preview", dir, "--now", "2026-11-01T00:00:00Z"]);
  expect(preview.code).toBe(0);
  expect(preview.stdout).not.toMatch(RAW);
  expect(preview.stdout).toContain(
    "│ Hi \uFFFD[8mhidden\uFFFD[0m x.\uFFFDVote\uFFFD2J. Reply STOP to opt out\n",
  );
  expect(preview.stdout).toContain("│ At \uFFFD[8mCity Hall\uFFFD[0m. Reply STOP to opt out\n");
  expect(preview.stdout).toContain('UCS-2 because of "\\u001b"');
  const validate = await runCli(["validate", dir, "--verbose", "--now", "2026-11-01T00:00:00Z"]);
  expect(`${validate.stdout}${validate.stderr}`).not.toMatch(RAW);
  expect(validate.stdout).toContain("hint: remove an invisible character (U+001B), or keep it");
  expect(validate.stdout).toContain("hint: remove an invisible character (U+009B), or keep it");
});

test("validate's source excerpt shows a raw control byte of the file, and keeps the caret under it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-controls-"));
  const line = '    message: "Hi \u001b[8mhidden\u001b[0m friend. Reply STOP to opt out"';
  writeFileSync(join(dir, "c.yaml"), `version: 1\nprojects:\n  p1:\n    id: p1\n    state: draft\n${line}\n`);
  const validate = await runCli(["validate", dir, "--verbose", "--now", "2026-11-01T00:00:00Z"]);
  expect(`${validate.stdout}${validate.stderr}`).not.toMatch(RAW);
  expect(validate.stdout).toContain(
    '  6 |     message: "Hi \uFFFD[8mhidden\uFFFD[0m friend. Reply STOP to opt out"\n' +
      "    |                  ^\n",
  );
});
