import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { UCS2_YAML, workspace } from "./fixtures.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

/** A temp directory with examples/ and ucs2.yaml. */
function examplesWorkspace(): string {
  const dir = workspace({ "ucs2.yaml": UCS2_YAML });
  cpSync(EXAMPLES, join(dir, "examples"), { recursive: true });
  return dir;
}

describe("preview --html", () => {
  it("writes DIR/index.html instead of the text previews, offline, saying the projects were not planned", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "ucs2.yaml", "examples/", "--html", "out/gallery"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Wrote the gallery to out/gallery/index.html");
    const html = readFileSync(join(dir, "out/gallery/index.html"), "utf8");
    expect(html.match(/<article class="project"/g)).toHaveLength(5);
    expect(html.match(/not planned: run with <span class="flag">--sandbox<\/span>/g)).toHaveLength(5);
  });

  it("with --sandbox shows each project's plan status and estimated cost, sending nothing", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", "--html", "gallery", "--sandbox"], { cwd: dir });
    expect(result.code).toBe(0);
    const html = readFileSync(join(dir, "gallery/index.html"), "utf8");
    expect(html).not.toContain("not planned");
    expect(html.match(/data-testid="plan-status">Plan against <code>embedded-sandbox:/g)).toHaveLength(4);
    expect(html).toMatch(/<span class="status-planned">pause: planned<\/span> \(scheduled → paused\)/);
    expect(html).toMatch(
      /Estimated cost<\/dt><dd>[\d,]+ recipients x 1 segment \(GSM-7\) = [\d,]+ segments, about \$\d+\.\d\d/,
    );
    // Read-only: a plan right after shows the same pending pause (nothing was applied).
    const plan = await runCli(["plan", "--sandbox", "examples/", "--json"], { cwd: dir });
    const document = JSON.parse(plan.stdout) as {
      projects: { address: string; actions: { status: string }[] }[];
    };
    expect(document.projects.find((p) => p.address === "early-vote-push")?.actions).toHaveLength(1);
  });

  it("still writes the gallery when the plan cannot be made, and reports why", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(
      ["preview", "examples/", "--html", "gallery", "--base-url", "http://127.0.0.1:9/v1"],
      { cwd: dir, env: { CAMPAIGNCTL_API_KEY: undefined } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error\[/);
    const html = readFileSync(join(dir, "gallery/index.html"), "utf8");
    expect(html).toContain("not planned: the plan could not be made (see the diagnostics)");
  });

  it("says when DIR cannot be written", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", "--html", "ucs2.yaml/sub"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cli.file-unwritable");
  });
});

describe("plan --markdown --gallery-url", () => {
  it("links the gallery from the Markdown report", async () => {
    const dir = examplesWorkspace();
    const url = "https://ci.example/artifacts/gallery/index.html";
    const result = await runCli(
      ["plan", "--sandbox", "examples/", "--markdown", "plan.md", "--gallery-url", url],
      { cwd: dir },
    );
    expect(result.stderr).toContain("Wrote the Markdown report to plan.md");
    expect(readFileSync(join(dir, "plan.md"), "utf8")).toContain(
      `Message previews: [the gallery of phone mock-ups](<${url}>).`,
    );
  });
});
