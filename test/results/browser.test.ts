/**
 * The results charts (`campaignctl results --html DIR`) in a real browser, as the preview gallery's
 * test does it (test/gallery/browser.test.ts): headless Chromium from Debian's packages driven by
 * playwright-core, only the fonts of test/gallery/fonts.ts. A store of hand-made snapshots (two
 * organizations, sends on known days of October 2026) is read into the page; the test asserts the
 * rendered text, the charts' geometry (a column's height is its bucket's share of the largest), the
 * charts' values in words, no console error, no request but the file itself, and a layout that fits
 * a phone's width.
 *
 * Skipped, saying so, only when Chromium or `fonts-dejavu-core` is missing on a developer's machine;
 * with CI=true a missing one fails (.ci/run installs both).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  BROWSER_TIMEOUT,
  CAN_RUN_BROWSER,
  CHROMIUM,
  pageInBrowser,
  requireBrowserInCi,
} from "../helpers/browser.js";
import { runCli } from "../helpers/run-cli.js";
import { snap } from "./snapshots.js";

requireBrowserInCi("results browser test");

/** A line of the store: project `id` of `org` at `at` with `sent` messages (and a tenth replied). */
function line(id: string, org: string, at: string, sent: number): string {
  return JSON.stringify(
    snap(
      id,
      at,
      { sent, replies: Math.floor(sent / 10) },
      {
        project_name: `GOTV ${id}`,
        organization_id: `org-${org}`,
        organization_name: `${org} County Democrats`,
        total_recipients: 1000,
      },
    ),
  );
}

describe.skipIf(!CAN_RUN_BROWSER)(`the results charts in headless Chromium (${CHROMIUM})`, () => {
  /** Opens the charts at `width`, recording console errors and every request. */
  const open = pageInBrowser("campaignctl-results-fonts-", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-results-html-"));
    for (const [org, lines] of [
      [
        "Adams",
        [
          line("A1", "Adams", "2026-10-05T12:00:00.000Z", 200),
          line("A1", "Adams", "2026-10-10T12:00:00.000Z", 400),
        ],
      ],
      ["Baker <b>", [line("B1", "Baker <b>", "2026-10-10T18:00:00.000Z", 100)]],
    ] as const) {
      const dir = join(
        cwd,
        "results",
        org
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/-$/, ""),
      );
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "2026-10.jsonl"), `${lines.join("\n")}\n`);
    }
    const result = await runCli(["results", "--month", "2026-10", "--html", "charts"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Wrote the results charts to charts/index.html");
    return pathToFileURL(join(cwd, "charts", "index.html")).href;
  });

  it(
    "shows the table, the trend's columns in proportion and in words, and the groups' bars",
    async () => {
      const { page, errors, requests, url } = await open(1280);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Campaign results");
      const table = page.getByRole("table", { name: "Results by organization" });
      await expect(table.locator("tr").nth(1).locator("th").textContent()).resolves.toBe(
        "Adams County Democrats",
      );
      await expect(table.locator("tr").nth(2).locator("th").textContent()).resolves.toBe(
        "Baker <b> County Democrats",
      );
      const sent = page.locator('figure[data-metric="Sent"] .chart');
      await expect(sent.getAttribute("aria-label")).resolves.toContain("2026-10-05: 200; ");
      await expect(sent.getAttribute("aria-label")).resolves.toContain("2026-10-10: 300; ");
      const chart = await sent.boundingBox();
      const day5 = await sent.locator(".col").nth(4).boundingBox();
      const day10 = await sent.locator(".col").nth(9).boundingBox();
      const day6 = await sent.locator(".col").nth(5).boundingBox();
      expect(chart && day5 && day10 && day6).toBeTruthy();
      if (chart && day5 && day10 && day6) {
        // The tallest column fills the chart; 200 of 300 fills two thirds; an empty day has none.
        expect(day10.height).toBeGreaterThan(chart.height * 0.95);
        expect(day5.height / day10.height).toBeCloseTo(2 / 3, 1);
        expect(day6.height).toBe(0);
        expect(day5.y + day5.height).toBeCloseTo(day10.y + day10.height, 0);
      }
      await expect(
        page.getByRole("img", { name: "Adams County Democrats: 400 sent, 40 replies" }).count(),
      ).resolves.toBe(1);
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "fits a phone's width: the wide table scrolls in its own box, the page does not",
    async () => {
      const { page } = await open(390);
      const overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      expect(overflow).toBe(0);
      const charts = await page
        .locator("figure.trend")
        .evaluateAll((figures) => figures.map((f) => f.getBoundingClientRect().width));
      expect(charts).toHaveLength(4);
      for (const width of charts) expect(width).toBeLessThanOrEqual(390);
    },
    BROWSER_TIMEOUT,
  );
});
