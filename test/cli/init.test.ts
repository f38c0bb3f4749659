/**
 * `campaignctl init [DIR]` in temp directories: what it writes (the example campaign, the policy,
 * the schema copies the modelines name, the package's own CI pipelines, a .gitignore git obeys),
 * that `init demo && cd demo && campaignctl plan --sandbox campaigns/` works, and that it never
 * overwrites a file (nothing is written then). The first test runs `init` and `plan` as the built
 * binary (`node dist/cli/main.js`: the package's files found from dist/, the README's first
 * steps as a user types them); the others run the same commands in-process (`run` of cli/main.ts,
 * the one exit mapping), which reads the same bytes and exit codes without a Node process each.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { declaredSchema } from "../../src/campaign/schema-modeline.js";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "campaignctl-init-"));
}

/** Every file under `dir`, relative, with `/`, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

const read = (path: string) => readFileSync(path, "utf8");

/** The package's `examples/ci/` file at `path`. */
const shipped = (path: string) => read(join(ROOT, "examples", "ci", path));

const CORE = [
  ".gitignore",
  "campaigns/campaignctl.policy.yaml",
  "campaigns/example.yaml",
  "schemas/campaign.schema.json",
  "schemas/policy.schema.json",
];

describe("campaignctl init", () => {
  test("init demo && cd demo && campaignctl plan --sandbox campaigns/ works", async () => {
    const cwd = tempDir();
    const init = await runBuiltCli(["init", "demo"], { cwd });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Next steps:");
    expect(init.stdout).toContain("     cd demo\n     campaignctl validate campaigns/\n");
    expect(init.stdout).toContain("campaignctl plan --sandbox campaigns/\n");
    // Every docs/ page the next steps name is found where they say (the new repository has no docs/).
    const docs = /^The docs\/ pages named above come with campaignctl, in (.+)$/m.exec(init.stdout)?.[1];
    expect(docs).toBeDefined();
    const named = [...init.stdout.matchAll(/docs\/([a-z-]+\.md)/g)].map((m) => m[1] ?? "");
    expect(named).toEqual(expect.arrayContaining(["policy.md", "ci.md"]));
    for (const page of named) expect(existsSync(join(docs ?? "", page)), page).toBe(true);
    const demo = join(cwd, "demo");

    const plan = await runBuiltCli(["plan", "--sandbox", "campaigns/"], { cwd: demo });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("+ gotv-reminder.test: planned, draft -> awaiting_test");
    expect(plan.stdout).toContain("policy:    campaigns/campaignctl.policy.yaml");

    const json = await runCli(["plan", "--sandbox", "campaigns/", "--json", "--detailed-exitcode"], {
      cwd: demo,
    });
    expect(json.code).toBe(2); // actions pending, nothing blocked, no error
    const document = documentOf("plan", json.stdout) as {
      summary: { planned: number; blocked: number; drifted: number; errors: number; warnings: number };
    };
    expect(document.summary).toMatchObject({ planned: 1, blocked: 0, drifted: 0, errors: 0, warnings: 0 });

    const validate = await runCli(["validate", "campaigns/", "--strict"], { cwd: demo });
    expect(validate.code).toBe(0);
  }, 60_000);

  test("writes the campaign, the policy, the schemas, the package's GitHub pipelines and .gitignore", async () => {
    const cwd = tempDir();
    expect((await runCli(["init"], { cwd })).code).toBe(0);
    const ci = readdirSync(join(ROOT, "examples/ci/github")).filter((f) => /\.ya?ml$/.test(f));
    const scripts = readdirSync(join(ROOT, "examples/ci/scripts"));
    expect(filesUnder(cwd)).toEqual(
      [
        ...CORE,
        ...ci.map((f) => `.github/workflows/${f}`),
        ...scripts.map((f) => `.github/scripts/${f}`),
      ].sort(),
    );
    // Copied from the package at run time, byte for byte.
    for (const f of ci) expect(read(join(cwd, ".github/workflows", f))).toBe(shipped(`github/${f}`));
    for (const f of scripts) expect(read(join(cwd, ".github/scripts", f))).toBe(shipped(`scripts/${f}`));
    for (const name of ["campaign", "policy"])
      expect(read(join(cwd, `schemas/${name}.schema.json`))).toBe(
        read(join(ROOT, `schemas/${name}.schema.json`)),
      );
  });

  test.each([
    ["gitlab", [".gitlab-ci.yml", ".gitlab/scripts/sticky-comment.mjs"]],
    ["none", []],
  ])("--ci %s writes its pipelines", async (ci, pipelines) => {
    const cwd = tempDir();
    expect((await runCli(["init", "--ci", ci], { cwd })).code).toBe(0);
    expect(filesUnder(cwd)).toEqual([...CORE, ...pipelines].sort());
    if (ci === "gitlab") expect(read(join(cwd, ".gitlab-ci.yml"))).toBe(shipped("gitlab/.gitlab-ci.yml"));
  });

  test("the modelines name the schema copies by a relative path that resolves", async () => {
    const cwd = tempDir();
    expect((await runCli(["init", "repo"], { cwd })).code).toBe(0);
    const expected = {
      "campaigns/example.yaml": "campaign",
      "campaigns/campaignctl.policy.yaml": "policy",
    } as const;
    for (const [file, name] of Object.entries(expected)) {
      const path = join(cwd, "repo", file);
      const schema = declaredSchema(read(path));
      expect(schema).toBe(`../schemas/${name}.schema.json`);
      const target = resolve(dirname(path), schema ?? "");
      expect(JSON.parse(read(target)).title).toBe(`campaignctl ${name} file`);
    }
  });

  test("git ignores the local state, saved plans and reports, and nothing init wrote", async () => {
    const cwd = tempDir();
    expect((await runCli(["init"], { cwd })).code).toBe(0);
    execFileSync("git", ["init", "--quiet"], { cwd });
    expect(
      (
        await runCli(["plan", "--sandbox", "campaigns/", "--out", "plan.json", "--markdown", "plan.md"], {
          cwd,
        })
      ).code,
    ).toBe(0);
    mkdirSync(join(cwd, "gallery"));
    writeFileSync(join(cwd, "gallery/index.html"), "");
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd,
      encoding: "utf8",
    });
    const untracked = status
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.slice(3))
      .sort();
    expect(untracked).toEqual(
      filesUnder(cwd).filter((f) => !/^(\.git|\.campaignctl|gallery)\/|^plan\.|\/\.campaignctl\//.test(f)),
    );
    expect(existsSync(join(cwd, ".campaignctl/sandbox"))).toBe(true); // written, and ignored
    // The offline snapshot plan wrote beside the campaign files: written, and ignored.
    expect(existsSync(join(cwd, "campaigns/.campaignctl/snapshot.json"))).toBe(true);
  });

  test("refuses to overwrite a file: a clear error, and nothing is written", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "campaigns"));
    writeFileSync(join(cwd, "campaigns/example.yaml"), "mine\n");
    writeFileSync(join(cwd, ".gitignore"), "node_modules/\n");
    const run = await runCli(["init", "."], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "error[cli.file-exists]: init would overwrite a file that exists: campaigns/example.yaml; nothing was written",
    );
    expect(filesUnder(cwd)).toEqual([".gitignore", "campaigns/example.yaml"]);
    expect(read(join(cwd, "campaigns/example.yaml"))).toBe("mine\n");
    expect(read(join(cwd, ".gitignore"))).toBe("node_modules/\n");
  });

  test("a policy file spelt campaignctl.policy.yml is the directory's policy: refused, not twinned", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "campaigns"));
    const mine = "version: 1\nrules:\n  max_estimated_cost_usd: 5\n";
    writeFileSync(join(cwd, "campaigns/campaignctl.policy.yml"), mine);
    const run = await runCli(["init", "."], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "error[cli.file-exists]: init would write campaigns/campaignctl.policy.yaml beside the policy file campaigns/campaignctl.policy.yml",
    );
    expect(filesUnder(cwd)).toEqual(["campaigns/campaignctl.policy.yml"]);
    expect(read(join(cwd, "campaigns/campaignctl.policy.yml"))).toBe(mine);
  });

  test("a campaignctl.policy.yml with init's own policy is kept, and no second policy file is written", async () => {
    const cwd = tempDir();
    expect((await runCli(["init", "demo"], { cwd })).code).toBe(0);
    const demo = join(cwd, "demo");
    const policy = read(join(demo, "campaigns/campaignctl.policy.yaml"));
    renameSync(
      join(demo, "campaigns/campaignctl.policy.yaml"),
      join(demo, "campaigns/campaignctl.policy.yml"),
    );
    const again = await runCli(["init", "."], { cwd: demo });
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(filesUnder(demo).filter((f) => f.includes("policy."))).toEqual([
      "campaigns/campaignctl.policy.yml",
      "schemas/policy.schema.json",
    ]);
    expect(read(join(demo, "campaigns/campaignctl.policy.yml"))).toBe(policy);
    const validate = await runCli(["validate", "campaigns/"], { cwd: demo });
    expect(validate.stderr).not.toContain("policy.ambiguous");
    expect(validate.code).toBe(0);
  });

  test("in an existing repository, adds what is missing to its .gitignore instead of refusing", async () => {
    const cwd = tempDir();
    execFileSync("git", ["init", "-q"], { cwd });
    writeFileSync(join(cwd, ".gitignore"), "node_modules/\n/plan.json\n.campaignctl\n");
    const run = await runCli(["init", "."], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "Wrote the .gitignore with 4 patterns added (plan.md apply.md apply.xml gallery/) to .gitignore",
    );
    expect(read(join(cwd, ".gitignore"))).toBe(
      [
        "node_modules/",
        "/plan.json",
        ".campaignctl",
        "",
        "# campaignctl (added by campaignctl init): its cache, journals, saved plans and reports",
        "plan.md",
        "apply.md",
        "apply.xml",
        "gallery/",
        "",
      ].join("\n"),
    );
    const ignored = execFileSync("git", ["check-ignore", ".campaignctl/x", "plan.md", "gallery/index.html"], {
      cwd,
      encoding: "utf8",
    });
    expect(ignored.trim().split("\n")).toEqual([".campaignctl/x", "plan.md", "gallery/index.html"]);
    // Again: nothing is missing, nothing is written.
    const again = await runCli(["init", "."], { cwd });
    expect(again).toMatchObject({ code: 0, stderr: "" });
  });

  test("a second init over its own files changes nothing and succeeds", async () => {
    const cwd = tempDir();
    expect((await runCli(["init", "demo"], { cwd })).code).toBe(0);
    const before = filesUnder(cwd).map((f) => [f, read(join(cwd, f))]);
    const again = await runCli(["init", "demo"], { cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(filesUnder(cwd).map((f) => [f, read(join(cwd, f))])).toEqual(before);
  });

  test("DIR that is a file is refused", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "demo"), "");
    const run = await runCli(["init", "demo"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "error[cli.file-exists]: demo exists and is not a directory; nothing was written",
    );
  });
});
