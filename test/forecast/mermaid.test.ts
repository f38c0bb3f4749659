/**
 * The Markdown comment's Mermaid `gantt` block is parsed and drawn by Mermaid itself (the package's
 * browser bundle, in headless Chromium from Debian's packages), as GitHub and GitLab render it: the
 * examples' forecast, whose declared cap makes both GOTV sends pause, gives one bar per project
 * marked `crit`, and the milestones of the Pacific midnights. A broken block is refused, so the
 * test can fail. Skipped, saying so, only without Chromium on a developer's machine (CI installs it).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = process.env.CI === "true";
const MERMAID = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
const BROWSER_TIMEOUT = 120_000;

if (!HAVE_CHROMIUM && !IN_CI) console.warn(`Mermaid test skipped: no Chromium at ${CHROMIUM}`);

it.runIf(IN_CI)("with CI=true, Chromium is there, so the Mermaid test really runs", () => {
  expect(HAVE_CHROMIUM).toBe(true);
});

let planned: Promise<string> | undefined;

/** The Mermaid block of the examples' `plan --forecast --markdown`, planned once for the file. */
function examplesBlock(): Promise<string> {
  planned ??= planExamplesBlock();
  return planned;
}

async function planExamplesBlock(): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-mermaid-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  await runCli(["plan", "--sandbox", "examples/", "--forecast", "--markdown", "plan.md"], { cwd, env: {} });
  const block = /```mermaid\n([\s\S]*?)\n```/.exec(readFileSync(join(cwd, "plan.md"), "utf8"))?.[1];
  if (block === undefined) throw new Error("no Mermaid block in plan.md");
  return block;
}

describe.skipIf(!HAVE_CHROMIUM)("the Mermaid gantt block, by Mermaid", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ path: MERMAID });
    await page.evaluate("mermaid.initialize({ startOnLoad: false })");
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
  });

  /** Mermaid's parse, then its drawing: the SVG, or the parser's error message. */
  const render = (text: string): Promise<{ ok: true; svg: string } | { ok: false; error: string }> =>
    page.evaluate(async (source) => {
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global
      const m = (globalThis as any).mermaid;
      try {
        await m.parse(source);
        const { svg } = await m.render(`g${Math.random().toString(36).slice(2)}`, source);
        return { ok: true as const, svg: svg as string };
      } catch (e) {
        return { ok: false as const, error: String((e as Error).message ?? e) };
      }
    }, text);

  it(
    "the examples' block parses and draws a bar per project, both paused at the cap",
    async () => {
      const block = await examplesBlock();
      const drawn = await render(block);
      if (!drawn.ok) throw new Error(`Mermaid refused the block: ${drawn.error}\n${block}`);
      expect(drawn.svg).toContain("gotv-reminder");
      expect(drawn.svg).toContain("gotv-followup");
      // A task bar is a rect of class task...; crit bars carry "crit".
      const bars = drawn.svg.match(/<rect [^>]*class="task[^"]*"/g) ?? [];
      expect(bars.filter((b) => b.includes("crit")).length).toBe(2);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "a broken block is refused (the check can fail)",
    async () => {
      const block = await examplesBlock();
      const broken = block
        .replace(/^ {2}dateFormat .*$/m, "  dateFormat")
        .replace(/:(crit, )?/, ":after nothing ");
      const drawn = await render(`${broken}\n  this is : not, a, task, line, at, all`);
      expect(drawn.ok).toBe(false);
    },
    BROWSER_TIMEOUT,
  );
});
