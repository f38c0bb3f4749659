/**
 * Load-time checks added for issue 9 item 4 ("what goes out must be described") and issue 10 (YAML
 * hints, CR line endings, ids differing in case, test phones outside US/Canada): code and position.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

function diagnosticsOf(text: string) {
  const { diagnostics } = assembleCampaign([campaignFile("c.yaml", text)]);
  return [...diagnostics].sort(compareDiagnostics);
}

const codes = (text: string) => diagnosticsOf(text).map(where);

const MESSAGE = "    message: Vote Tuesday! Reply STOP to opt out\n";
const TEST = '    test:\n      contacts:\n        - phone: "+15035550150"\n';

/** [name, file text, expected `code@line:col`] */
const CASES: readonly [string, string, readonly string[]][] = [
  [
    "tested without a message",
    `version: 1\nprojects:\n  a:\n    id: x\n    state: tested\n${TEST}`,
    ["campaign.message-missing@5:12"],
  ],
  [
    "tested with a message",
    `version: 1\nprojects:\n  a:\n    id: x\n${MESSAGE}    state: tested\n${TEST}`,
    [],
  ],
  [
    "scheduled without message and contact lists",
    "version: 1\nprojects:\n  a:\n    id: x\n    state: scheduled\n    schedule: {at: now, timezone: America/Chicago}\n",
    ["campaign.contact-lists-missing@5:12", "campaign.message-missing@5:12"],
  ],
  [
    "scheduled with both, contact lists inherited from defaults",
    `version: 1\ndefaults:\n  contact_lists: [Ward 3]\nprojects:\n  a:\n    id: x\n${MESSAGE}    state: scheduled\n    schedule: {at: now, timezone: America/Chicago}\n`,
    [],
  ],
  [
    "draft and paused describe nothing",
    "version: 1\nprojects:\n  a: {id: x}\n  b: {id: y, state: paused}\n",
    [],
  ],
  [
    "a test phone outside US/Canada",
    `version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "+15035550150"\n        - phone: "+447700900123"\n`,
    ["campaign.test-phone-not-nanp@8:18"],
  ],
  [
    "the same test phone twice (at the repeat; the first listing is related)",
    `version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "+15035550150"\n        - phone: "+15035550151"\n        - phone: "+15035550150"\n`,
    ["campaign.test-phone-repeated@9:18"],
  ],
  [
    "a +1 test phone with an area code starting with 1",
    `version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "+11035550150"\n`,
    ["campaign.test-phone-not-nanp@7:18"],
  ],
  [
    "ids differing only in case",
    "version: 1\nprojects:\n  a:\n    id: 9a000000-0000-4000-8000-00000000000a\n  b:\n    id: 9A000000-0000-4000-8000-00000000000A\n",
    ["campaign.ids-differ-in-case@6:9"],
  ],
  [
    "an unquoted phone number (YAML reads a number)",
    `version: 1\nprojects:\n  a:\n    id: x\n    phone_numbers:\n      - +15035550101\n`,
    ["campaign.yaml-unquoted-phone@6:9"],
  ],
  [
    "an unquoted test phone",
    `version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: +15035550150\n`,
    ["campaign.yaml-unquoted-phone@7:18"],
  ],
  [
    "a key indented one space too far",
    "version: 1\nprojects:\n  a:\n    id: x\n     name: GOTV\n    state: draft\n",
    ["campaign.yaml-indent@5:5"],
  ],
  [
    "a key in a list item indented one space too far",
    'version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "+15035550150"\n           merge_values: {first_name: Ana}\n',
    ["campaign.yaml-indent@8:11"],
  ],
  ["a tab as indentation", "version: 1\nprojects:\n  a:\n\tid: x\n", ["campaign.yaml-indent@4:1"]],
  [
    "lone CR line endings",
    "version: 1\rprojects:\r  a:\r    id: x\r    name: GOTV\r",
    ["campaign.cr-line-endings@1:11"],
  ],
];

describe("load-time checks", () => {
  it.each(CASES)("%s", (_name, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });
});

describe("hints", () => {
  it("an unquoted phone says to quote it", () => {
    const [d] = diagnosticsOf("version: 1\nprojects:\n  a:\n    id: x\n    phone_numbers: [+15035550101]\n");
    expect(d?.hint).toBe(
      'write it in quotes, in E.164 form: "+15035550101" (unquoted, YAML reads +15035550101 as a number)',
    );
    expect(d?.message).toContain("is read as the number 15035550101");
  });

  it("a misindented key names the key and the one above, replacing the library's cascade", () => {
    const ds = diagnosticsOf("version: 1\nprojects:\n  a:\n    id: x\n     name: GOTV\n");
    expect(ds.map((d) => [d.code, d.message, d.range?.start.column, d.range?.end.column])).toEqual([
      ["campaign.yaml-indent", "key `name` is indented 1 space more than `id` on the line above", 5, 10],
    ]);
    expect(ds[0]?.hint).toContain("column 5");
  });

  it("a tab says to use spaces", () => {
    const [d] = diagnosticsOf("version: 1\nprojects:\n  a:\n\tid: x\n");
    expect(d?.hint).toContain("replace the tab with spaces");
  });

  it("a lone CR is a line break: later positions are on the right line", () => {
    const ds = diagnosticsOf("version: 1\rprojects:\r  a:\r    id: x\r    nmae: GOTV\r");
    expect(ds.map(where)).toEqual(["campaign.cr-line-endings@1:11", "campaign.unknown-key@5:5"]);
  });

  it("a lone CR inside a message reads as a line break; CRLF files get no warning", () => {
    const { campaign } = assembleCampaign([
      campaignFile(
        "c.yaml",
        "version: 1\rprojects:\r  a:\r    id: x\r    message: |-\r      Hi\r      there\r",
      ),
    ]);
    expect(campaign.projects[0]?.message).toBe("Hi\nthere");
    expect(codes("version: 1\r\nprojects:\r\n  a:\r\n    id: x\r\n")).toEqual([]);
  });

  it("a repeated project address is declared once, in a small `projects` map as in a large one", () => {
    // assemble.ts indexes the addresses only of a map the walk found a repeated key in.
    for (const others of [0, 20]) {
      const filler = Array.from({ length: others }, (_, i) => `  p${i}: {id: "${i}"}\n`).join("");
      const text = `version: 1\nprojects:\n${filler}  a: {id: x}\n  b: {id: y}\n  a: {id: z}\n`;
      const { diagnostics, addresses, campaign } = assembleCampaign([campaignFile("c.yaml", text)]);
      expect(diagnostics.map(where)).toEqual([`campaign.duplicate-key@${others + 5}:3`]);
      const declared = [...Array.from({ length: others }, (_, i) => `p${i}`), "a", "b"];
      expect(addresses).toEqual(declared);
      // YAML keeps the last `a`: its id is the project's.
      expect(campaign.projects.map((p) => `${p.address}=${p.id}`).slice(-2)).toEqual(["a=z", "b=y"]);
    }
  });

  it("a duplicate key is still reported at both places (the library's own check is off)", () => {
    const [d] = diagnosticsOf("version: 1\nprojects:\n  a:\n    id: x\n    id: y\n");
    expect(where(d as never)).toBe("campaign.duplicate-key@5:5");
    expect(d?.related?.[0]?.range.start.line).toBe(4);
  });

  it("a repeated test phone names both places: the repeat, and the first listing in related", () => {
    const [d] = diagnosticsOf(
      'version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "+15035550150"\n        - phone: "+15035550150"\n',
    );
    expect(where(d as never)).toBe("campaign.test-phone-repeated@8:18");
    expect(d?.related?.[0]?.range.start).toMatchObject({ line: 7, column: 18 });
  });
});
