/**
 * The gallery of this test's own campaign files (test/gallery/fixtures/: a copy of the example
 * campaign and its policy with schedules in 2036, so that editing examples/ never changes the
 * screenshots) plus a project with a UCS-2 merge value, built as CI builds its artifact: from the
 * saved plan of the files with its forecast (`plan --sandbox --forecast --out plan.json`, then
 * `preview --html --plan plan.json`), in a real browser: headless Chromium from Debian's packages,
 * driven by playwright-core with the system executable. Asserts the rendered text (the overview
 * first, then the forecast's timeline), no console errors, no request but file://, the layout at
 * phone and desktop widths and in print, and compares screenshots with test/gallery/reference/*.png
 * within a tolerance (UPDATE_REFERENCES=1 rewrites them; a mismatch leaves the actual and a diff
 * image in a temp dir).
 *
 * Nothing on the machine but Chromium itself changes a screenshot: the gallery is rendered at a
 * fixed instant (the machine clock at `TEST_NOW` and `--now`; the plan by the sandbox's virtual
 * clock, shown to the second), and Chromium sees only the fonts and font settings of fonts.ts
 * (`FONTCONFIG_FILE`), never the system's.
 *
 * Skipped, saying so, only when Chromium or `fonts-dejavu-core` is missing on a developer's machine;
 * with CI=true a missing one fails (.ci/run installs both).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  BROWSER_TIMEOUT,
  CAN_RUN_BROWSER,
  CHROMIUM,
  type OpenedPage,
  pageInBrowser,
  requireBrowserInCi,
} from "../helpers/browser.js";
import { clockFrom, TEST_NOW } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { GALLERY_PLAN_ARGS, galleryWorkspace, PLAN_ARGS } from "./fixtures.js";
import { comparePng, decodePng, diffPng, encodePng } from "./png.js";

const REFERENCES = fileURLToPath(new URL("./reference/", import.meta.url));
/** A pixel differs when a channel moves by more than this; a screenshot fails past MAX_DIFFERING. */
const CHANNEL_THRESHOLD = 48;
const MAX_DIFFERING = 0.01;

requireBrowserInCi("gallery browser test");

describe.skipIf(!CAN_RUN_BROWSER)(`the gallery in headless Chromium (${CHROMIUM})`, () => {
  /** Opens the gallery at `width`, recording console errors and every request: a fresh load. */
  const load = pageInBrowser("campaignctl-gallery-fonts-", async () => {
    const dir = galleryWorkspace();
    // The plan is blocked by drift (exit 1) and still saved, as in a CI job that reports it.
    const plan = await runCli(PLAN_ARGS, { cwd: dir, clock: clockFrom(TEST_NOW) });
    expect(plan.stderr).toContain("Wrote the plan to plan.json");
    // A fixed instant, twice over: the machine clock the command sees and --now for the lint.
    const result = await runCli([...GALLERY_PLAN_ARGS, "--now", TEST_NOW.toISOString()], {
      cwd: dir,
      clock: clockFrom(TEST_NOW),
    });
    expect(result.stderr).toContain("Wrote the gallery to gallery/index.html");
    expect(result.code).toBe(0);
    return pathToFileURL(join(dir, "gallery", "index.html")).href;
  });

  /**
   * The last load, while nothing has changed it since it was made (the tests that read it only read:
   * text, attributes, computed styles and boxes; no scrolling, no emulated media, no DOM left
   * changed), and its width.
   */
  let unchanged: { readonly width: number; readonly opened: Promise<OpenedPage> } | undefined;

  /**
   * The gallery at `width` for a test that only reads it: the unchanged load at that width, else a
   * fresh one. Its errors and requests are the whole load's, so each reader checks them all. The
   * tests that read come first, one width at a time: three loads for the file instead of one per
   * test (each about 100 ms of Chromium's CPU and 50 ms of this process's).
   */
  function read(width: number): Promise<OpenedPage> {
    if (unchanged?.width !== width) unchanged = { width, opened: load(width) };
    return unchanged.opened;
  }

  /**
   * The gallery at `width` for a test that changes it (scrolls to take a screenshot, emulates print):
   * the unchanged load at that width, which no later test gets, else a fresh load.
   */
  function change(width: number): Promise<OpenedPage> {
    const opened = unchanged?.width === width ? unchanged.opened : load(width);
    unchanged = undefined;
    return opened;
  }

  it(
    "shows each message as it arrives, with the sources of its values and the UCS-2 characters",
    async () => {
      const { page, errors, requests } = await read(1280);
      const welcome = page.getByRole("article", { name: "Welcome <script>alert(1)</script>" });
      await expect(welcome.getByRole("heading", { level: 2 }).textContent()).resolves.toBe(
        "Welcome <script>alert(1)</script>",
      );
      const tested = welcome.locator("section.case").filter({ hasText: "Test contact 1" });
      await expect(tested.locator(".bubble").textContent()).resolves.toBe(
        "Chào Đặng! Meet the team at the library in Riverside county <b>today</b>.\nSTOP=END",
      );
      await expect(tested.locator("mark.ucs2").allTextContents()).resolves.toEqual(["Đ", "ặ", "Đ", "ặ"]);
      const firstMark = "document.querySelector('article.project section.case .bubble mark.ucs2')";
      await expect(page.evaluate(`getComputedStyle(${firstMark}).backgroundColor`)).resolves.toBe(
        "rgb(255, 201, 201)",
      );
      const sources = await tested
        .locator("table.tags tbody tr")
        .evaluateAll((rows) =>
          rows.map(
            (r) => `${r.querySelector("th")?.textContent}=${r.querySelector("td.source")?.textContent}`,
          ),
        );
      expect(sources).toEqual([
        "first_name=contact: the contact's own value",
        "team=inline fallback: the tag's inline fallback ({{field|fallback}})",
        "place=contact: the contact's own value",
        "county=organization default: the file's merge_defaults",
      ]);
      await expect(tested.textContent()).resolves.toContain("UCS-2 because of Đ (U+0110), ặ (U+1EB7)");
      const empty = welcome.locator("section.case").filter({ hasText: "Contact with no values" });
      await expect(empty.locator("td.source").allTextContents()).resolves.toContain(
        "empty: no value anywhere: the tag sends nothing",
      );
      await expect(welcome.textContent()).resolves.toContain("Mon, Dec 8, 2036, 9:30 AM PST");

      const reminder = page.getByRole("article", { name: "GOTV Reminder" });
      await expect(reminder.locator(".bubble").first().textContent()).resolves.toBe(
        "Hi Maria, the Ward 3 runoff is tomorrow, Mon Dec 8. Polls are open 7am-7pm at Riverside Community Center. Reply STOP to opt out",
      );
      await expect(reminder.getByTestId("plan-status").textContent()).resolves.toMatch(
        /^Plan against embedded-sandbox:default at Tue, Dec 1, 2026, 15:00 UTC: live now draft: not tested yet; the file asks for scheduled \(tested, approved, then sent to its lists at its schedule\)\.$/,
      );
      const volunteers = page.getByRole("article", { name: "Volunteer Recruitment" });
      await expect(volunteers.locator(".media").first().textContent()).resolves.toContain(
        "Image attachmentrally-flyer.png",
      );

      await expect(page.getByRole("main", { name: "Message previews" }).count()).resolves.toBe(1);
      expect(errors).toEqual([]);
      expect(requests.filter((r) => !r.startsWith("file://"))).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "opens with the overview: what sends when, to which lists and how many, for how much, and the policy",
    async () => {
      const { page, errors, requests } = await read(1280);
      const overview = page.getByRole("region", {
        name: "Overview: what sends when, to how many, for how much",
      });
      // Nothing but the page's heading comes before it.
      await expect(
        page.evaluate(
          `document.querySelector("main").firstElementChild === document.querySelector("section.overview")`,
        ),
      ).resolves.toBe(true);
      const rows = overview.locator("tbody tr");
      await expect(rows.locator("th a").allTextContents()).resolves.toEqual([
        "GOTV Reminder",
        "Welcome <script>alert(1)</script>",
        "GOTV Follow-up",
        "Early Vote Push",
        "Volunteer Recruitment",
      ]);
      const first = rows.first();
      await expect(
        first.locator(`td[data-label="Sends (recipients' time, UTC)"]`).textContent(),
      ).resolves.toBe("Sun, Dec 7, 2036, 10:00 AM CSTAmerica/Chicago2036-12-07 16:00 UTC");
      await expect(first.locator(`td[data-label="Contact lists"]`).textContent()).resolves.toBe(
        "Ward 3 Likely Voters",
      );
      await expect(first.locator(`td[data-label="Suppression lists"]`).textContent()).resolves.toBe(
        "Do Not Text",
      );
      await expect(first.locator(`td[data-label="Estimated cost"]`).textContent()).resolves.toBe(
        "$0.30for the 30 sent before the cap ($0.38 for all 38)",
      );
      await expect(first.locator(`td[data-label="Plan status"]`).textContent()).resolves.toBe(
        "test send: blocked (cannot be done as the files stand); schedule: blocked (cannot be done as the files stand)",
      );
      await expect(first.locator(`td[data-label="Guard"]`).textContent()).resolves.toBe("none");
      await expect(rows.nth(1).locator(`td[data-label="Guard"]`).textContent()).resolves.toBe(
        "failure > 5%opt-out > 1.5%from 100 sent",
      );
      await expect(overview.locator("tfoot tr").first().textContent()).resolves.toBe(
        "Total (2 projects sending)7676 SMS segments$0.76",
      );
      await expect(overview.locator("dl").textContent()).resolves.toContain(
        "Policycampaign/campaignctl.policy.yamlRulesdaily_cap_bypass forbid",
      );
      await expect(
        page.getByRole("link", { name: "Volunteer Recruitment" }).getAttribute("href"),
      ).resolves.toMatch(/^#project-\d$/);
      await expect(page.getByRole("banner").count()).resolves.toBe(1);
      expect(errors).toEqual([]);
      expect(requests.filter((r) => !r.startsWith("file://"))).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "draws the forecast's timeline after the overview: both GOTV sends pause at the cap, in words too",
    async () => {
      const { page, errors, requests } = await read(1280);
      const timeline = page.getByRole("region", {
        name: "Forecast: when each project sends, and where the daily cap stops it",
      });
      await expect(
        page.evaluate(
          `document.querySelector("section.overview").nextElementSibling === document.querySelector("section.timeline")`,
        ),
      ).resolves.toBe(true);
      const brand = timeline.getByRole("region", { name: /^Brand Riverside Democrats/ });
      await expect(brand.getByRole("heading", { level: 3 }).textContent()).resolves.toBe(
        "Brand Riverside Democrats: daily cap 30 messages a Pacific day",
      );
      await expect(brand.locator(".tl-days li").allTextContents()).resolves.toEqual([
        "Sun, Dec 7 from 00:00 PST, 08:00 UTC 30 of 30",
        "Mon, Dec 8 from 00:00 PST, 08:00 UTC 30 of 30",
      ]);
      const rows = brand.locator(".tl-row .tl-label");
      await expect(rows.allTextContents()).resolves.toEqual([
        "gotv-reminder 38 recipients · starts 2036-12-07 10:00 CST (2036-12-07 16:00 UTC) · paused at the cap, 8 of 38 left, restart is a dashboard step: at 2036-12-07 10:00 CST (2036-12-07 16:00 UTC), sends again from 2036-12-08 02:00 CST (2036-12-08 08:00 UTC) at the earliest",
        "gotv-followup 38 recipients · starts 2036-12-08 15:00 CST (2036-12-08 21:00 UTC) · paused at the cap, 8 of 38 left, restart is a dashboard step: at 2036-12-08 15:00 CST (2036-12-08 21:00 UTC), sends again from 2036-12-09 02:00 CST (2036-12-09 08:00 UTC) at the earliest · deadline 2036-12-08 19:00 CST (2036-12-09 01:00 UTC), not met",
      ]);
      // Each track is an image with its row in words; the pause is a mark of its own.
      await expect(brand.getByRole("img").count()).resolves.toBe(2);
      await expect(brand.getByRole("img").first().getAttribute("aria-label")).resolves.toContain(
        "paused at the cap, 8 of 38 left, restart is a dashboard step",
      );
      await expect(brand.locator(".tl-pause").count()).resolves.toBe(2);
      // The Pacific midnight between the two days is where the day strip's cells meet.
      const midnight = await brand.locator(".tl-track .tl-midnight").first().boundingBox();
      const secondDay = await brand.locator(".tl-days li").nth(1).boundingBox();
      expect(Math.abs((midnight?.x ?? 0) - (secondDay?.x ?? 100))).toBeLessThanOrEqual(2);
      await expect(timeline.locator("table.forecast tbody tr").count()).resolves.toBe(2);
      expect(errors).toEqual([]);
      expect(requests.filter((r) => !r.startsWith("file://"))).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "renders with the test's own fonts, never one installed on the machine",
    async () => {
      const { page } = await read(1280);
      /** The width of a sample in `family`, falling back to monospace when Chromium lacks it. */
      const widthIn = (family: string): Promise<unknown> =>
        page.evaluate(`(() => {
          const s = document.createElement("span");
          s.style.font = ${JSON.stringify(`20px ${family}, monospace`)};
          s.textContent = "Hamburgefonstiv 0123";
          document.body.append(s);
          const width = s.getBoundingClientRect().width;
          s.remove();
          return width;
        })()`);
      const fallback = await widthIn("monospace");
      expect(await widthIn('"DejaVu Sans"'), "DejaVu Sans is in the set").not.toBe(fallback);
      // Fonts Debian installs with chromium, fonts-dejavu-extra and ImageMagick: none is seen.
      for (const family of ['"Liberation Sans"', '"DejaVu Sans Condensed"', '"Noto Sans"', '"Nimbus Sans"'])
        expect(await widthIn(family), `${family} must not be available`).toBe(fallback);
    },
    BROWSER_TIMEOUT,
  );

  it.each([1280, 390])(
    "looks like the reference images at %i px",
    async (width) => {
      const { page } = await change(width);
      const shots: [string, Buffer][] = [
        [`gallery-top-${width}.png`, await page.screenshot({ animations: "disabled" })],
        [
          `gallery-ucs2-${width}.png`,
          await page.locator("article.project").first().screenshot({ animations: "disabled" }),
        ],
        [
          `gallery-timeline-${width}.png`,
          await page.locator("section.timeline").screenshot({ animations: "disabled" }),
        ],
      ];
      for (const [name, actual] of shots) expectLikeReference(name, actual);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "shows a project's reply rules with their answers and SMS facts, as one card per rule on a phone",
    async () => {
      const { page, errors } = await read(390);
      const rules = page.getByRole("region", { name: "Reply rules" });
      await expect(rules.count()).resolves.toBe(1);
      const texts = await rules.locator("tbody tr").allInnerTexts();
      expect(texts.map((t) => t.replace(/\s+/g, " ").trim())).toEqual([
        "shift en: volunteer, shift; es: voluntario, turno Thanks! Sign up for a volunteer shift at volunteer.example.org. GSM-7, 63 characters, 1 segment",
        "who pattern /\\bwho (is|'s) this\\b/ Esta es la campaña de Ana Núñez — Riverside Democrats. UCS-2, 54 characters, 1 segment (not GSM: ú —)",
      ]);
      // One card per rule: the rows are blocks, each cell labelled ("Answer: ...").
      const box = await rules.locator("tbody tr").first().boundingBox();
      expect(box?.width ?? 0).toBeLessThanOrEqual(390);
      await expect(
        page.evaluate(`getComputedStyle(document.querySelector("table.replies tbody tr")).display`),
      ).resolves.toBe("block");
      await expect(
        page.evaluate(
          `getComputedStyle(document.querySelector("table.replies td[data-label=Answer]"), "::before").content`,
        ),
      ).resolves.toBe('"Answer: "');
      expect(errors).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "fits a 390 px phone without sideways scrolling, and prints without the navigation",
    async () => {
      const { page, errors } = await change(390);
      await expect(page.evaluate("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(390);
      // The timeline fits too: its tracks scroll inside their box only when there are many days.
      await expect(
        page.evaluate(
          `(() => { const s = document.querySelector(".tl-scroll"); return s.scrollWidth <= s.clientWidth; })()`,
        ),
      ).resolves.toBe(true);
      // The overview reads as one card per project, its project first.
      const card = page.locator("table.overview tbody tr").first();
      const box = await card.boundingBox();
      expect(box?.width ?? 0).toBeLessThanOrEqual(390);
      await expect(
        page.evaluate(`getComputedStyle(document.querySelector("table.overview tbody tr th")).order`),
      ).resolves.toBe("-1");
      await page.emulateMedia({ media: "print" });
      await expect(page.locator("a.skip").isVisible()).resolves.toBe(false);
      await expect(page.locator("section.overview").isVisible()).resolves.toBe(true);
      await expect(page.locator("section.timeline .tl-track").first().isVisible()).resolves.toBe(true);
      await expect(page.locator("article.project").first().isVisible()).resolves.toBe(true);
      expect(errors).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );
});

function expectLikeReference(name: string, actual: Buffer): void {
  const reference = join(REFERENCES, name);
  if (process.env.UPDATE_REFERENCES === "1") {
    mkdirSync(REFERENCES, { recursive: true });
    writeFileSync(reference, actual);
    return;
  }
  expect(
    existsSync(reference),
    `missing ${reference}: run UPDATE_REFERENCES=1 npx vitest run test/gallery`,
  ).toBe(true);
  const referenceBytes = readFileSync(reference);
  // The same bytes are the same pixels: Chromium's encoder is deterministic, so a rendering that did
  // not change gives the reference's very file and needs no decoding (about 80 ms of CPU a
  // screenshot). Any other file is decoded and compared pixel by pixel (png.ts, test/gallery/png.test.ts).
  if (referenceBytes.equals(actual)) return;
  const [expected, got] = [decodePng(referenceBytes), decodePng(actual)];
  const result = comparePng(expected, got, CHANNEL_THRESHOLD);
  const share = result.differing / result.total;
  if (share > MAX_DIFFERING) {
    const out = mkdtempSync(join(tmpdir(), "campaignctl-gallery-diff-"));
    writeFileSync(join(out, name), actual);
    writeFileSync(join(out, `diff-${name}`), encodePng(diffPng(expected, got, CHANNEL_THRESHOLD)));
    expect.fail(
      `${name}: ${(share * 100).toFixed(2)}% of pixels differ from the reference (limit ${MAX_DIFFERING * 100}%); actual and diff in ${out}`,
    );
  }
}
