import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
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
    expect(html.match(/<article class="project"/g)).toHaveLength(7);
    // Once in the overview's facts, once per project.
    expect(html.match(/not planned: run with <span class="flag">--sandbox<\/span>/g)).toHaveLength(8);
    expect(html).toContain("Total: not known until planned");
  });

  it("with --sandbox shows each project's plan status and estimated cost, sending nothing", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", "--html", "gallery", "--sandbox"], { cwd: dir });
    expect(result.code).toBe(0);
    const html = readFileSync(join(dir, "gallery/index.html"), "utf8");
    expect(html).not.toContain("not planned");
    expect(html.match(/data-testid="plan-status">Plan against <code>embedded-sandbox:/g)).toHaveLength(6);
    expect(html).toContain(
      `<span class="status-planned">pause: planned (done when the plan is applied)</span> (from scheduled: scheduled to send, to paused: paused, sends nothing until resumed)`,
    );
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

/** Every contact and suppression list the example campaign names. */
function exampleLists(): string[] {
  const loaded = loadCampaign(["examples/"], fileURLToPath(new URL("../../", import.meta.url)));
  const names = loaded.campaign.projects.flatMap((p) => [
    ...(p.contactLists ?? []),
    ...(p.suppressionLists ?? []),
  ]);
  return [...new Set(names)];
}

describe("preview --html --plan (a saved plan, offline)", () => {
  /** A workspace with examples/ and the saved plan of `plan --sandbox examples/ --out plan.json`. */
  async function planned(): Promise<string> {
    const dir = examplesWorkspace();
    const plan = await runCli(
      ["plan", "--sandbox", "examples/", "--out", "plan.json", "--markdown", "plan.md"],
      {
        cwd: dir,
      },
    );
    expect(plan.code, plan.stderr).toBe(0);
    return dir;
  }
  const offline = { CAMPAIGNCTL_API_KEY: undefined, CAMPAIGNCTL_BASE_URL: undefined };

  it("names every list of the examples, the counts, costs, statuses, totals and policy, like the plan's Markdown", async () => {
    const dir = await planned();
    const result = await runCli(["preview", "examples/", "--html", "g", "--plan", "plan.json"], {
      cwd: dir,
      env: offline,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Wrote the gallery to g/index.html");
    const html = readFileSync(join(dir, "g/index.html"), "utf8");
    const markdown = readFileSync(join(dir, "plan.md"), "utf8");
    const lists = exampleLists();
    expect(lists).toEqual(
      expect.arrayContaining(["Ward 3 Likely Voters", "Volunteer Prospects", "Do Not Text"]),
    );
    for (const list of lists) {
      expect(html, list).toContain(list);
      expect(markdown, list).toContain(list);
    }
    // The two GOTV sends of 38 recipients at $0.38 each; the test and the pause send nothing to lists.
    expect(html).toContain(
      `<th scope="row" colspan="5" data-label="">Total (2 projects sending)</th><td class="number nowrap" data-label="Recipients">76</td><td class="number" data-label="Messages">76 SMS segments</td><td class="number nowrap" data-label="Estimated cost">$0.76</td>`,
    );
    expect(markdown).toContain(
      "**Totals of the sends to lists:** 2 projects, 76 recipients, 76 SMS segments, about $0.76.",
    );
    expect(html).not.toContain("not known until planned");
    expect(html).toContain(
      `<span class="status-deferred">test send: planned (done when the plan is applied); schedule: deferred (waits for an earlier step)</span>`,
    );
    expect(html).toContain(
      `<span class="status-planned">pause: planned (done when the plan is applied)</span>`,
    );
    expect(html).toMatch(
      /Estimated cost<\/dt><dd>38 recipients x 1 segment \(GSM-7\) = 38 segments, about \$0\.38/,
    );
    expect(html).toContain("read from the saved plan <code>plan.json</code>");
    expect(html).toContain("<dt>Policy</dt><dd><code>examples/campaignctl.policy.yaml</code></dd>");
    expect(html).toContain(
      `<time datetime="2026-12-07T16:00:00Z">Mon, Dec 7, 2026, 10:00 AM CST</time><br><span class="zone">America/Chicago<br><span class="nowrap">2026-12-07 16:00 UTC</span></span>`,
    );
  });

  it("warns, on stderr and on the page, when a file is not the one the plan was made from", async () => {
    const dir = await planned();
    appendFileSync(join(dir, "examples/gotv.yaml"), "\n# edited after the plan\n");
    const result = await runCli(["preview", "examples/", "--html", "g", "--plan", "plan.json"], {
      cwd: dir,
      env: offline,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("warning[report.plan-files-differ]: examples/gotv.yaml is not the file");
    const html = readFileSync(join(dir, "g/index.html"), "utf8");
    expect(html).toContain(`<h2 id="campaign-problems-warning">Warnings in the files (1)</h2>`);
    expect(html).not.toContain("early-vote.yaml is not the file");
  });

  it.each([
    ["not JSON", "{ not json", "report.plan-not-json"],
    ["a plan of another version", JSON.stringify({ format_version: 1 }), "report.plan-version"],
  ])("refuses a saved plan that is %s, and still writes the gallery", async (_, text, code) => {
    const dir = examplesWorkspace();
    writeFileSync(join(dir, "plan.json"), text);
    const result = await runCli(["preview", "examples/", "--html", "g", "--plan", "plan.json"], {
      cwd: dir,
      env: offline,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(code);
    expect(readFileSync(join(dir, "g/index.html"), "utf8")).toContain(
      "not planned: the saved plan plan.json could not be read (see the diagnostics)",
    );
  });

  it("says when the saved plan cannot be read", async () => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", "--html", "g", "--plan", "missing.json"], {
      cwd: dir,
      env: offline,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cli.file-unreadable");
    expect(result.stderr).toContain("cannot read the saved plan missing.json (ENOENT)");
  });

  it.each([
    [["--plan", "plan.json"], "--plan goes only with --html DIR"],
    [
      ["--html", "g", "--plan", "plan.json", "--sandbox"],
      "--plan reads a saved plan, offline: it does not go with --sandbox",
    ],
  ])("is a usage error with %j", async (flags, message) => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", ...flags], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

/** The timeline section of a gallery page; "" when it has none. */
function timelineOf(html: string): string {
  const start = html.indexOf(`<section class="timeline"`);
  return start < 0 ? "" : html.slice(start, html.indexOf(`<div id="messages">`, start));
}

describe("preview --html --forecast (the forecast's timeline)", () => {
  it("shows both GOTV sends of the examples pausing at the declared cap, live and from a plan saved with --forecast", async () => {
    const dir = examplesWorkspace();
    const live = await runCli(["preview", "examples/", "--html", "live", "--sandbox", "--forecast"], {
      cwd: dir,
    });
    expect(live.code, live.stderr).toBe(0);
    const timeline = timelineOf(readFileSync(join(dir, "live/index.html"), "utf8"));
    expect(timeline).toContain(
      'Brand Riverside Democrats: <span class="tl-cap">daily cap 30 messages a Pacific day</span>',
    );
    for (const address of ["gotv-reminder", "gotv-followup"])
      expect(timeline).toMatch(
        new RegExp(
          `<code>${address}</code> 38 recipients · starts .*?<strong class="tl-pause-text">paused at the cap, 8 of 38 left, restart is a dashboard step</strong>`,
        ),
      );
    expect(timeline.match(/<strong class="tl-count tl-full">30 of 30<\/strong>/g)).toHaveLength(2);
    expect(timeline).toContain(
      `deadline <time datetime="2026-12-09T01:00:00.000Z">2026-12-08 19:00 CST</time>`,
    );
    // The restart, in the sentence of the pause, in the recipients' zone with UTC beside it.
    expect(timeline).toContain(
      `sends again from <time datetime="2026-12-08T08:00:00.000Z">2026-12-08 02:00 CST</time> <span class="zone nowrap">(2026-12-08 08:00 UTC)</span> at the earliest`,
    );
    // The overview agrees with the timeline: 30 go out before the cap, 8 are left, and the cost is of the 30.
    const page = readFileSync(join(dir, "live/index.html"), "utf8");
    const overview = page.slice(page.indexOf('<section class="overview"'), page.indexOf("</section>"));
    expect(
      overview.match(
        /<span class="zone forecast-left">30 before the daily cap, 8 left \(forecast\)<\/span>/g,
      ),
    ).toHaveLength(2);
    expect(overview).toContain(
      `<span class="nowrap">$0.30</span><br><span class="zone">for the 30 sent before the cap ($0.38 for all 38)</span>`,
    );
    expect(overview).toContain(
      `<th scope="row" colspan="5" data-label="">By the forecast, before the daily caps pause the sends</th><td class="number" data-label="Recipients"><span class="nowrap">60</span><br><span class="zone">16 left</span></td><td data-label="Messages"></td><td class="number nowrap" data-label="Estimated cost">$0.60</td>`,
    );

    // As CI does it: the plan (and its Markdown comment) with --forecast, then the gallery from it.
    const plan = await runCli(
      ["plan", "--sandbox", "examples/", "--forecast", "--out", "plan.json", "--markdown", "plan.md"],
      { cwd: dir },
    );
    expect(plan.stderr).toContain("Wrote the plan to plan.json");
    expect(readFileSync(join(dir, "plan.md"), "utf8")).toContain(
      "pauses at the daily cap 2026-12-07 10:00 CST (Pacific day 2026-12-07), 8 of 38 left",
    );
    const saved = await runCli(["preview", "examples/", "--html", "saved", "--plan", "plan.json"], {
      cwd: dir,
      env: { CAMPAIGNCTL_API_KEY: undefined, CAMPAIGNCTL_BASE_URL: undefined },
    });
    expect(saved.code, saved.stderr).toBe(0);
    expect(timelineOf(readFileSync(join(dir, "saved/index.html"), "utf8"))).toBe(timeline);
  });

  it("shows no timeline when the plan has no forecast", async () => {
    const dir = examplesWorkspace();
    await runCli(["plan", "--sandbox", "examples/", "--out", "plan.json"], { cwd: dir });
    const saved = await runCli(["preview", "examples/", "--html", "g", "--plan", "plan.json"], { cwd: dir });
    expect(saved.code, saved.stderr).toBe(0);
    expect(timelineOf(readFileSync(join(dir, "g/index.html"), "utf8"))).toBe("");
    const live = await runCli(["preview", "examples/", "--html", "l", "--sandbox"], { cwd: dir });
    expect(live.code, live.stderr).toBe(0);
    expect(timelineOf(readFileSync(join(dir, "l/index.html"), "utf8"))).toBe("");
  });

  it.each([
    [["--forecast"], "--forecast goes only with --html DIR and --sandbox or --base-url"],
    [["--html", "g", "--forecast"], "--forecast goes only with --html DIR and --sandbox or --base-url"],
    [
      ["--html", "g", "--plan", "plan.json", "--forecast"],
      "--forecast goes with --sandbox or --base-url: with --plan, the gallery shows the saved plan's forecast",
    ],
  ])("is a usage error with %j", async (flags, message) => {
    const dir = examplesWorkspace();
    const result = await runCli(["preview", "examples/", ...flags], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
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
