/**
 * The bin's bundles call the `yaml` package's functions directly (scripts/after-build.mjs,
 * NAMED_FROM_COMMONJS; issue 36): a compiled module's `import { isScalar, ... } from "yaml"` is
 * bundled as names read once from the package's namespace, not as esbuild's getter per use
 * (`(0, import_yaml.isScalar)(node)`, a getter call before every call: about 1 % of `validate`'s CPU
 * over 10,000 projects, where the walk and the locators test every node). Read from the built bundles
 * (the ES module chunks and each code-cached bundle); and a bundled `validate` of a file with the
 * node kinds those tests tell apart prints what the unbundled sources print.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { CACHED_BUNDLES } from "../../cli/lifecycle/code-cache.js";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "dist/cli");

/** The text of every bundle the bin runs: its ES module chunks and the code-cached bundles. */
function bundles(): { readonly name: string; readonly text: string }[] {
  const chunks = readdirSync(CLI)
    .filter((name) => name === "main.js" || /^chunk-[A-Z0-9]+\.js$/.test(name))
    .map((name) => ({ name, text: readFileSync(join(CLI, name), "utf8") }));
  const cached = Object.keys(CACHED_BUNDLES).map((name) => ({
    name: `code-cache/${name}.js`,
    text: readFileSync(join(CLI, "code-cache", `${name}.js`), "utf8"),
  }));
  return [...chunks, ...cached];
}

/** A call through esbuild's namespace getter of a CommonJS package bundled as `yaml`. */
const YAML_GETTER_CALL = /\(0, ?import_yaml\d*\.[A-Za-z_$][\w$]*\)\(/;

describe("the bundles' calls of yaml", () => {
  test("no bundle calls a yaml function through the namespace's getter", () => {
    const all = bundles();
    expect(all.map((b) => b.name)).toContain("code-cache/validate.js");
    const through = all.filter((b) => YAML_GETTER_CALL.test(b.text)).map((b) => b.name);
    expect(through).toEqual([]);
    // The validate bundle reads yaml's names from the namespace, once per module.
    const validate = all.find((b) => b.name === "code-cache/validate.js")?.text ?? "";
    expect(validate).toMatch(/__campaignctlNamespace\d+=__toESM\(require_dist\(\)/);
  });

  test("a bundled validate reads aliases, merge keys, odd and repeated keys as the sources do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-yaml-names-"));
    writeFileSync(join(dir, "nodes.yaml"), NODES);
    for (const format of ["json", "text"]) {
      const args = ["validate", "nodes.yaml", "--format", format, "--now", "2026-06-01T12:00:00Z"];
      const bundled = await runBuiltCli(args, { cwd: dir });
      const sources = await runCli(args, { cwd: dir });
      expect(bundled.stdout).toBe(sources.stdout);
      expect(bundled.code).toBe(sources.code);
      expect(bundled.stdout).toMatch(/campaign\.duplicate-key/);
      expect(bundled.stdout).toMatch(/campaign\.yaml-alias/);
    }
  });
});

/** Every node kind the walk and the locators test: aliases, a merge key, odd and repeated keys. */
const NODES = `version: 1
defaults:
  channel: 10dlc
  brand: B
  campaign: C
  phone_numbers: ["+15035550101"]
base: &b {contact_lists: [L], name: Base}
? [complex, key]
: value
projects:
  a:
    <<: *b
    id: 9b000001-0000-4000-8000-000000000003
    message: &m "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out"
  b:
    id: 9b000001-0000-4000-8000-000000000004
    id: 9b000001-0000-4000-8000-000000000005
    name: B
    message: *m
    contact_lists: [L]
    labels: *missing
    after: [a, nowhere]
`;
