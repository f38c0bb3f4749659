import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { decodeCampaignFile } from "../../src/campaign/decode.js";
import { MAX_YAML_ERRORS_PER_FILE } from "../../src/campaign/parse-yaml.js";
import { GARBAGE_SEEDS, seededBytes } from "../helpers/seeded.js";
import { campaignFile, where } from "./helpers.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "campaignctl-robust-"));
}

const codes = (text: string) => assembleCampaign([campaignFile("c.yaml", text)]).diagnostics.map(where);

/** 9 levels of 9 aliases each: 9^9 (387 million) nodes if expanded naively. */
const aliasBomb = [
  "version: 1",
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...["b", "c", "d", "e", "f", "g", "h", "i"].map((name, i) => {
    const prev = "abcdefghi"[i];
    return `${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`;
  }),
  "projects: {}",
].join("\n");

describe("robustness: nothing crashes, everything is a diagnostic", () => {
  it.each([
    ["an empty file", "", ["campaign.empty-file@1:1"]],
    ["only comments", "# nothing here\n# at all\n", ["campaign.empty-file@1:1"]],
    ["only whitespace", "\n\n   \n", ["campaign.empty-file@1:1"]],
    ["a scalar document", "hello\n", ["campaign.schema-type@1:1"]],
    ["a list document", "- 1\n- 2\n", ["campaign.schema-type@1:1"]],
    ["two documents", "version: 1\n---\nversion: 1\n", ["campaign.multiple-documents@2:1"]],
  ])("%s", (_name, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  // How quickly is measured by bench/robustness.mjs, not here.
  it("refuses an alias bomb", () => {
    expect(codes(aliasBomb)).toEqual(["campaign.yaml-too-complex@1:1"]);
  });

  it("accepts aliases that expand modestly", () => {
    const text =
      "version: 1\nprojects:\n  a: {id: x, contact_lists: &lists [Ward 3]}\n  b: {id: y, contact_lists: *lists}\n";
    const { diagnostics, campaign } = assembleCampaign([campaignFile("c.yaml", text)]);
    expect(diagnostics).toEqual([]);
    expect(campaign.projects[1]?.contactLists).toEqual(["Ward 3"]);
    expect(campaign.projects[1]?.locate(["contact_lists"]).start).toMatchObject({ line: 3, column: 36 });
  });

  it("survives absurd nesting", () => {
    const depth = 20_000;
    const text = `version: 1\nfields: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
    const result = codes(text);
    expect(result.length).toBeGreaterThan(0);
    expect(result.every((c) => c.startsWith("campaign."))).toBe(true);
  });

  it.each(GARBAGE_SEEDS)("caps the YAML errors of random garbage (seed %i)", (seed) => {
    const bytes = Uint8Array.from(seededBytes(seed, 64 * 1024), (b) => (b === 0 ? 1 : b));
    const decoded = decodeCampaignFile("garbage.yaml", bytes);
    const file = decoded.file;
    expect(file).toBeDefined();
    if (file === undefined) return;
    const { diagnostics } = assembleCampaign([file]);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.length).toBeLessThanOrEqual(2 * (MAX_YAML_ERRORS_PER_FILE + 1) + 1);
  });

  it("reports binary files without parsing them", () => {
    const decoded = decodeCampaignFile("image.yaml", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(decoded.file).toBeUndefined();
    expect(decoded.diagnostics.map(where)).toEqual(["campaign.binary-file@1:1"]);
  });

  it("reports invalid UTF-8 at its position and keeps checking the rest", () => {
    const bytes = Buffer.concat([
      Buffer.from("version: 1\nmerge_defaults: {first_name: caf"),
      Buffer.from([0xe9]),
      Buffer.from("}\nbogus: 1\n"),
    ]);
    const decoded = decodeCampaignFile("latin1.yaml", bytes);
    expect(decoded.diagnostics.map(where)).toEqual(["campaign.encoding@2:33"]);
    const file = decoded.file;
    if (file === undefined) throw new Error("expected a file");
    expect(assembleCampaign([file]).diagnostics.map(where)).toEqual(["campaign.unknown-key@3:1"]);
  });

  it("refuses a 50 MB file without reading it", () => {
    const dir = tempDir();
    const big = join(dir, "big.yaml");
    writeFileSync(big, "");
    truncateSync(big, 50 * 1024 * 1024);
    const result = loadCampaign(["."], dir);
    expect(result.diagnostics.map(where)).toEqual(["campaign.file-too-large@1:1"]);
    expect(result.diagnostics[0]?.range?.file).toBe("big.yaml");
  });

  it("reports a directory without campaign files", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "notes.txt"), "version: 1\n");
    const result = loadCampaign(["."], dir);
    expect(result.diagnostics.map(where)).toEqual(["cli.no-input"]);
  });

  it("reports a missing path, and still reads the others", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.yaml"), "version: 1\nprojects:\n  a: {id: x}\n");
    const result = loadCampaign(["nope", "a.yaml"], dir);
    expect(result.diagnostics.map(where)).toEqual(["cli.path-not-found"]);
    expect(result.campaign.projects.map((p) => p.address)).toEqual(["a"]);
  });
});

describe("absurd nesting says what the file has too much of", () => {
  it.each([
    ["100,000 nested flow lists", `version: 1\nfields: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`],
    ["65 nested flow maps", `version: 1\nfields: ${"{a: ".repeat(65)}1${"}".repeat(65)}\n`],
    [
      "65 nested block lists",
      `version: 1\nfields:\n${Array.from({ length: 65 }, (_, i) => `${"  ".repeat(i)}- `).join("\n")}x\n`,
    ],
  ])("%s", (_name, text) => {
    const diagnostics = assembleCampaign([campaignFile("c.yaml", text)]).diagnostics;
    const complex = diagnostics.filter((d) => d.code === "campaign.yaml-too-complex");
    expect(complex.length).toBeGreaterThan(0);
    for (const d of complex)
      expect(d.message).toMatch(/^the file nests lists and maps (more than 64 levels|too) deep/);
    expect(diagnostics.some((d) => /call stack|Maximum/.test(d.message))).toBe(false);
    expect(complex[0]?.range?.start.line).toBeGreaterThanOrEqual(2);
  });

  it("64 levels are read", () => {
    const text = `version: 1\nfields: ${"[".repeat(63)}${"]".repeat(63)}\n`;
    const codes = assembleCampaign([campaignFile("c.yaml", text)]).diagnostics.map((d) => d.code);
    expect(codes).not.toContain("campaign.yaml-too-complex");
  });
});

describe("absurd nesting left open is the bracket it opens with, not an internal error", () => {
  // Before, the search for the unclosed bracket (or quote) walked every level of the syntax tree
  // after finding it: 50,000 `[` never closed overflowed the stack (validate exit 70).
  it.each([
    ["50,000 unclosed flow lists", `version: 1\nfields: ${"[".repeat(50_000)}\n`],
    ["50,000 unclosed flow lists and a quote", `version: 1\nfields: ${"[".repeat(50_000)}"abc\n`],
  ])("%s", (_name, text) => {
    expect(codes(text)).toEqual(["campaign.unclosed-bracket@2:9"]);
  });
});
