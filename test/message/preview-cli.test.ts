import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-preview-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const GOTV = `version: 1
merge_defaults:
  first_name: friend
fields:
  - polling_place
projects:
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    message: "Hi {{first_name}}, vote at {{polling_place|your polling place}}. Reply STOP to opt out"
    contact_lists: [Ward 3 Likely Voters]
    test:
      contacts:
        - phone: "+15035550150"
          merge_values:
            first_name: Maria
            polling_place: Lincoln High
        - phone: "+15035550151"
`;

describe("campaignctl preview", () => {
  it("renders every test contact and a contact with no values, with encoding and segments", async () => {
    const cwd = workspace({ "gotv.yaml": GOTV });
    const result = await runCli(["preview", "gotv.yaml"], { cwd });
    expect(result.stdout).toBe(
      [
        "gotv-reminder (gotv.yaml): broadcast, SMS, opt-out footer off",
        "  note: test contacts without merge_values get the values of a contact sampled from the project's list at send time; shown here with fallbacks",
        "  test contact 1 (+15035550150, merge_values)",
        "    │ Hi Maria, vote at Lincoln High. Reply STOP to opt out",
        '    tags: first_name="Maria" (contact), polling_place="Lincoln High" (contact)',
        "    53 characters, GSM-7, 1 segment (53 septets, 160 per segment)",
        "  test contact 2 (+15035550151, sampled from the list at send time; fallbacks shown)",
        "    │ Hi friend, vote at your polling place. Reply STOP to opt out",
        '    tags: first_name="friend" (merge_defaults), polling_place="your polling place" (inline fallback)',
        "    60 characters, GSM-7, 1 segment (60 septets, 160 per segment)",
        "  contact with no values (every tag falls back)",
        "    │ Hi friend, vote at your polling place. Reply STOP to opt out",
        '    tags: first_name="friend" (merge_defaults), polling_place="your polling place" (inline fallback)',
        "    60 characters, GSM-7, 1 segment (60 septets, 160 per segment)",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("renders the --contact values and says which characters forced UCS-2", async () => {
    const cwd = workspace({ "gotv.yaml": GOTV });
    const result = await runCli(
      [
        "preview",
        ".",
        "--target",
        "gotv-reminder",
        "--contact",
        "first_name=Đặng",
        "--contact",
        "polling_place=A=B",
      ],
      { cwd },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        "  --contact values",
        "    │ Hi Đặng, vote at A=B. Reply STOP to opt out",
        '    tags: first_name="Đặng" (contact), polling_place="A=B" (contact)',
        '    43 characters, UCS-2, 1 segment (43 UTF-16 units, 70 per segment); UCS-2 because of "Đ" "ặ"',
      ].join("\n"),
    );
  });

  it("prints a stable JSON document with the footer counted", async () => {
    const cwd = workspace({
      "f.yaml": `version: 1
projects:
  short:
    id: p1
    message: "{{first_name|Hi}} there"
    opt_out_footer: true
`,
    });
    const result = await runCli(["preview", "--format", "json"], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      format_version: 1,
      projects: [
        {
          address: "short",
          file: "f.yaml",
          type: "broadcast",
          protocol: "SMS",
          opt_out_footer: "STOP=END",
          notes: [],
          renderings: [
            {
              contact: { kind: "no-values" },
              values: {},
              text: "Hi there\nSTOP=END",
              characters: 17,
              tags: [{ name: "first_name", value: "Hi", source: "fallback" }],
              sms: {
                encoding: "GSM-7",
                units: 17,
                segments: 1,
                units_per_segment: 160,
                non_gsm_characters: [],
              },
            },
          ],
        },
      ],
      diagnostics: [],
    });
  });

  it("says segments do not apply to MMS, and that only a survey's intro is previewed", async () => {
    const cwd = workspace({
      "f.yaml": `version: 1
projects:
  flyer:
    id: p1
    message: "Rally Saturday! Reply STOP to opt out"
    media: [rally-flyer.png]
  poll:
    id: p2
    type: survey
    message: "Will you vote? Reply YES or NO, or STOP to opt out"
`,
    });
    const result = await runCli(["preview"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("flyer (f.yaml): broadcast, MMS, opt-out footer off\n");
    expect(result.stdout).toContain("    37 characters, MMS: segments do not apply\n");
    expect(result.stdout).toContain(
      "poll (f.yaml): survey, SMS, opt-out footer off\n  note: survey: only the intro question (message) is previewed; follow-up questions are not shown\n",
    );
  });

  it("refuses an unknown --target with a suggestion", async () => {
    const cwd = workspace({ "gotv.yaml": GOTV });
    const result = await runCli(["preview", "--target", "gotv-remider"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "error[cli.usage]: --target gotv-remider names no project in the given files\n",
    );
    expect(result.stderr).toContain("hint: did you mean gotv-reminder?\n");
  });

  it("prints the files' problems like validate and exits 1 when they do not load", async () => {
    const cwd = workspace({ "bad.yaml": "version: 1\nprojects:\n  x:\n    message: hi\n" });
    const result = await runCli(["preview"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^bad\.yaml:3:\d+: error\[campaign\.[a-z-]+\]/);
    expect(result.stderr).toContain(": 1 error");
  });

  it("still previews, but exits 1, when lint finds an error in the message", async () => {
    const cwd = workspace({
      "f.yaml": `version: 1
projects:
  nostop:
    id: p1
    message: "Vote Tuesday, {{frist_name|friend}}!"
`,
    });
    const result = await runCli(["preview"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("    │ Vote Tuesday, friend!\n");
    expect(result.stderr).toContain("f.yaml:5:14: error[lint.opt-out-missing]");
    expect(result.stderr).toContain("f.yaml:5:31: error[message.unknown-tag]");
  });

  it("rejects a --contact that is not field=value", async () => {
    const cwd = workspace({ "gotv.yaml": GOTV });
    const result = await runCli(["preview", "--contact", "Maria"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('expected field=value with a field name such as first_name, got "Maria"');
  });
});
