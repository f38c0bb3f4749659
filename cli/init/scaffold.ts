/**
 * What `campaignctl init` writes, and the next steps it prints. Pure: the package's schemas and CI
 * pipelines come in as texts, the modeline rule (cli/output/schema-reference.ts) as a function.
 *
 * Layout (paths relative to the scaffolded directory):
 * - `campaigns/example.yaml`, `campaigns/campaignctl.policy.yaml` (templates.ts): the policy sits with
 *   the files it governs, inside the pipelines' `campaigns/**` filter;
 * - `schemas/{campaign,policy}.schema.json`: copies of the package's, which the modelines name by a
 *   relative path, so an editor finds them on every clone;
 * - the pipelines of `--ci`, from the package's `examples/ci/`: GitHub `github/*.yml` into
 *   `.github/workflows/` and `scripts/*` into `.github/scripts/`; GitLab `gitlab/*` into the root
 *   and `scripts/*` into `.gitlab/scripts/` (where the pipelines' own headers say to copy them);
 * - `.gitignore`.
 */
import type { SchemaName } from "../output/schema-reference.js";
import type { CiSystem } from "./ci-systems.js";
import { exampleCampaign, GITIGNORE, policyFile } from "./templates.js";

/** A file of the package, by its path under `examples/ci/` (with `/`). */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

export interface ScaffoldInput {
  readonly ci: CiSystem;
  /** The package's schemas, by name. */
  readonly schemas: Readonly<Record<SchemaName, string>>;
  /** The package's `examples/ci/` files. */
  readonly ciSources: readonly SourceFile[];
  /** The `$schema` a file at `path` (relative to the scaffolded directory) names. */
  readonly schemaFor: (path: string, name: SchemaName) => string;
}

/** A file to write. Invariant: `path` is relative to the scaffolded directory, with `/`, unique. */
export interface ScaffoldFile {
  readonly path: string;
  readonly text: string;
  /** What it is, in messages ("campaign file"). */
  readonly what: string;
}

export const EXAMPLE_CAMPAIGN = "campaigns/example.yaml";
export const POLICY_PATH = "campaigns/campaignctl.policy.yaml";

/** Where each schema copy goes. */
export function schemaCopyPath(name: SchemaName): string {
  return `schemas/${name}.schema.json`;
}

export function scaffoldFiles(input: ScaffoldInput): ScaffoldFile[] {
  const ci = input.ciSources.flatMap((source) => {
    const target = ciTarget(input.ci, source.path);
    return target === undefined ? [] : [{ path: target, text: source.text, what: "CI file" }];
  });
  return [
    {
      path: EXAMPLE_CAMPAIGN,
      text: exampleCampaign(input.schemaFor(EXAMPLE_CAMPAIGN, "campaign")),
      what: "example campaign file",
    },
    { path: POLICY_PATH, text: policyFile(input.schemaFor(POLICY_PATH, "policy")), what: "policy file" },
    { path: schemaCopyPath("campaign"), text: input.schemas.campaign, what: "campaign file schema" },
    { path: schemaCopyPath("policy"), text: input.schemas.policy, what: "policy file schema" },
    ...ci.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    { path: ".gitignore", text: GITIGNORE, what: ".gitignore" },
  ];
}

/** Where a file of `examples/ci/` goes for `ci`, or undefined when it is not written. */
export function ciTarget(ci: CiSystem, source: string): string | undefined {
  const [folder, name, ...deeper] = source.split("/");
  if (folder === undefined || name === undefined || deeper.length > 0) return undefined;
  switch (ci) {
    case "github":
      if (folder === "github" && /\.ya?ml$/.test(name)) return `.github/workflows/${name}`;
      return folder === "scripts" ? `.github/scripts/${name}` : undefined;
    case "gitlab":
      if (folder === "gitlab") return name;
      return folder === "scripts" ? `.gitlab/scripts/${name}` : undefined;
    case "none":
      return undefined;
  }
}

/**
 * The next steps, for a directory shown as `dir` ("." when it is the working directory), naming
 * `docs` (the absolute directory of the running campaignctl's documentation, which the new
 * repository has no copy of) so every `docs/…` page they name can be found. Ends with a newline.
 */
export function nextSteps(dir: string, ci: CiSystem, docs: string): string {
  const inDir = dir === "." ? "" : `cd ${shellWord(dir)}\n     `;
  const pipelines: readonly string[] =
    ci === "github"
      ? [
          "     The pipelines in .github/workflows/ plan every pull request that touches campaigns/ and",
          "     apply the reviewed plan on merge; the secrets and variables they read are listed in their",
          "     header comments and in docs/ci.md.",
        ]
      : ci === "gitlab"
        ? [
            "     The pipeline in .gitlab-ci.yml plans every merge request that touches campaigns/ and",
            "     applies the reviewed plan on merge; the variables it reads are listed in its header",
            "     comment and in docs/ci.md.",
          ]
        : ["     Pipelines that plan every pull request and apply on merge: docs/ci.md."];
  return [
    `Scaffolded a campaign repository in ${dir === "." ? "the current directory" : dir}.`,
    "",
    "Next steps:",
    "  1. Try it against the embedded sandbox (no API key, nothing is texted):",
    `     ${inDir}campaignctl validate campaigns/`,
    "     campaignctl plan --sandbox campaigns/",
    "  2. Describe your own projects: delete campaigns/example.yaml, export CAMPAIGNCTL_API_KEY",
    "     (a key of your account), then",
    "     campaignctl import --all --out campaigns/",
    "     list your reviewers' phones under defaults: test: (the policy asks every sending project",
    "     for a test, and a project imported already scheduled has none), then",
    "     campaignctl plan campaigns/",
    "  3. Edit campaigns/campaignctl.policy.yaml, campaignctl's safe defaults, to your organization's",
    "     texting rules (docs/policy.md). The pipelines pass --require-policy: keep the file.",
    "  4. Put the directory under git, commit and push.",
    ...pipelines,
    "",
    `The docs/ pages named above come with campaignctl, in ${docs}`,
    "",
  ].join("\n");
}

/** `dir` as one shell word: quoted when it has anything but plain path characters. */
function shellWord(dir: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
}
