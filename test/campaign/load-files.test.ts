import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCampaignFiles } from "../../cli/adapters/campaign-files.js";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { where } from "./helpers.js";

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-load-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("reading campaign files", () => {
  it("a named pipe or a device named on the command line is unreadable at once, never waited on", () => {
    const dir = tree({ "camp/good.yaml": "version: 1\n" });
    execFileSync("mkfifo", [join(dir, "camp/pipe.yaml")]);
    const result = readCampaignFiles(["camp/pipe.yaml", "/dev/zero"], dir);
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["cli.file-unreadable", "cannot read camp/pipe.yaml: it is a named pipe (FIFO), not a regular file"],
      ["cli.file-unreadable", "cannot read /dev/zero: it is a character device, not a regular file"],
    ]);
  });

  it("reports a dangling or looping symbolic link as an error with the reason, never skips it", () => {
    const dir = tree({ "camp/good.yaml": "version: 1\n" });
    symlinkSync(join(dir, "camp/missing.yaml"), join(dir, "camp/dangling.yaml"));
    symlinkSync(join(dir, "camp/loop.yaml"), join(dir, "camp/loop.yaml"));
    const result = readCampaignFiles(["camp"], dir);
    expect(result.files.map((f) => f.path)).toEqual(["camp/good.yaml"]);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ["cli.file-unreadable", "error", "cannot read camp/dangling.yaml (a symbolic link to nothing, ENOENT)"],
      ["cli.file-unreadable", "error", "cannot read camp/loop.yaml (a loop of symbolic links, ELOOP)"],
    ]);
  });

  it("reports a looping path given on the command line as an error, not an internal error", () => {
    const dir = tree({});
    symlinkSync(join(dir, "self"), join(dir, "self"));
    const result = readCampaignFiles(["self/x.yaml"], dir);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["cli.file-unreadable", "cannot read self/x.yaml (a loop of symbolic links, ELOOP)"],
    ]);
  });

  it("reads directories recursively, sorted, skipping hidden entries and other extensions", () => {
    const dir = tree({
      "camp/b.yaml": "version: 1\n",
      "camp/a.yml": "version: 1\n",
      "camp/sub/c.yaml": "version: 1\n",
      "camp/sub/notes.md": "# no\n",
      "camp/.hidden/d.yaml": "version: 1\n",
      "camp/node_modules/e.yaml": "version: 1\n",
    });
    const result = readCampaignFiles(["camp"], dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual(["camp/a.yml", "camp/b.yaml", "camp/sub/c.yaml"]);
    expect(result.files[0]?.sha256).toBe(createHash("sha256").update("version: 1\n").digest("hex"));
  });

  it("reads a .YAML or .Yml file as a .yaml one (as when named), never skips it; an editor's backup is not read", () => {
    const dir = tree({
      "camp/gotv.yaml": "version: 1\n",
      "camp/PAUSE.YAML": "version: 1\n",
      "camp/sub/stop.Yml": "version: 1\n",
      "camp/gotv.yaml~": "version: 1\n",
      "camp/gotv.yaml.bak": "version: 1\n",
      "camp/#gotv.yaml#": "version: 1\n",
    });
    const result = readCampaignFiles(["camp"], dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual([
      "camp/PAUSE.YAML",
      "camp/gotv.yaml",
      "camp/sub/stop.Yml",
    ]);
  });

  it("reads a nested repository's files like any directory's: the tree is one campaign, as the policy search sees it", () => {
    // A `git init` in a subdirectory leaves a .git directory, a submodule or worktree a .git file;
    // neither ends the campaign (nor the policy search: docs/policy.md), only the .git itself is skipped.
    const dir = tree({
      "camp/a.yaml": "version: 1\n",
      "camp/team/.git/HEAD": "ref: refs/heads/main\n",
      "camp/team/.git/x.yaml": "version: 1\n",
      "camp/team/t.yaml": "version: 1\n",
      "camp/shared/.git": "gitdir: ../../.git/modules/shared\n",
      "camp/shared/s.yaml": "version: 1\n",
    });
    const result = readCampaignFiles(["camp"], dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual([
      "camp/a.yaml",
      "camp/shared/s.yaml",
      "camp/team/t.yaml",
    ]);
  });

  it("skips YAML files of another schema inside directories, but not when named explicitly", () => {
    const dir = tree({
      "gotv.yaml": "# yaml-language-server: $schema=../schemas/campaign.schema.json\nversion: 1\n",
      "sandbox.yaml": "# yaml-language-server: $schema=../schemas/fixture.schema.json\nclock: {}\n",
      "plain.yaml": "version: 1\n",
    });
    expect(readCampaignFiles(["."], dir).files.map((f) => f.path)).toEqual(["gotv.yaml", "plain.yaml"]);
    expect(readCampaignFiles(["sandbox.yaml"], dir).files.map((f) => f.path)).toEqual(["sandbox.yaml"]);
  });

  it("keeps the path as given for files, and reads a file reached twice once", () => {
    const dir = tree({ "x/gotv.yaml": "version: 1\n" });
    const result = readCampaignFiles(["./x/gotv.yaml", "x"], dir);
    expect(result.files.map((f) => f.path)).toEqual(["./x/gotv.yaml"]);
  });
});

describe("assembling several files", () => {
  it("loads projects in file order, then key order, each with its file's settings", () => {
    const dir = tree({
      "b.yaml":
        "version: 1\nfields: [polling_place]\nmerge_defaults: {first_name: friend}\nprojects:\n  z: {id: '1'}\n  y: {id: '2', after: [a]}\n",
      "a.yaml": "version: 1\norganization: Riverside Democrats\nprojects:\n  a: {id: '3'}\n",
    });
    const { campaign, diagnostics, addresses } = loadCampaign(["."], dir);
    expect(diagnostics).toEqual([]);
    expect(addresses).toEqual(["a", "z", "y"]);
    expect(
      campaign.projects.map((p) => [p.address, p.file, p.organization, p.fields, p.mergeDefaults]),
    ).toEqual([
      ["a", "a.yaml", "Riverside Democrats", [], {}],
      ["z", "b.yaml", undefined, ["polling_place"], { first_name: "friend" }],
      ["y", "b.yaml", undefined, ["polling_place"], { first_name: "friend" }],
    ]);
  });

  it("reports a duplicate address across files with both places", () => {
    const dir = tree({
      "a.yaml": "version: 1\nprojects:\n  gotv: {id: '1'}\n",
      "b.yaml": "version: 1\nprojects:\n\n  gotv: {id: '2'}\n",
    });
    const { campaign, diagnostics } = loadCampaign(["."], dir);
    expect(diagnostics.map(where)).toEqual(["campaign.duplicate-address@4:3"]);
    expect(diagnostics[0]?.range?.file).toBe("b.yaml");
    expect(
      diagnostics[0]?.related?.map((r) => `${r.range.file}:${r.range.start.line}:${r.range.start.column}`),
    ).toEqual(["a.yaml:3:3"]);
    expect(campaign.projects.map((p) => p.id)).toEqual(["1"]);
  });

  it("resolves `after` across files and does not blame `after` for an invalid project", () => {
    const dir = tree({
      "a.yaml": "version: 1\nprojects:\n  first: {id: '1', state: nope}\n",
      "b.yaml": "version: 1\nprojects:\n  second: {id: '2', after: [first]}\n",
    });
    const { diagnostics } = loadCampaign(["."], dir);
    expect(diagnostics.map(where)).toEqual(["campaign.schema-enum@3:27"]);
  });

  it("keeps checking other files after a broken one", () => {
    const dir = tree({
      "a.yaml": "version: 1\nprojects: [\n",
      "b.yaml":
        "version: 1\nprojects:\n  b: {id: '2', message: Hi STOP, contact_lists: [W], state: scheduled}\n",
    });
    const { diagnostics } = loadCampaign(["."], dir);
    expect(diagnostics.map((d) => `${d.range?.file}:${where(d)}`)).toEqual([
      "a.yaml:campaign.unclosed-bracket@2:11",
      "b.yaml:campaign.schedule-missing@3:61",
    ]);
  });
});
