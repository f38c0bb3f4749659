/**
 * The real browser of the HTML tests (test/gallery/browser.test.ts, test/results/browser.test.ts):
 * headless Chromium from Debian's packages (or `CHROMIUM_PATH`), driven by playwright-core, seeing
 * only the fonts of test/gallery/fonts.ts (`FONTCONFIG_FILE`), never the system's. A test that needs
 * it is skipped, saying so, only when Chromium or `fonts-dejavu-core` is missing on a developer's
 * machine; with CI=true a missing one fails (`requireBrowserInCi`; .ci/run installs both).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlledFonts, missingFonts } from "../gallery/fonts.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const MISSING_FONTS = missingFonts();
/** Whether the browser tests can run here: Chromium and the fonts are installed. */
export const CAN_RUN_BROWSER = HAVE_CHROMIUM && MISSING_FONTS.length === 0;
const IN_CI = process.env.CI === "true";
/** Chromium starts slowly on a busy 2-core machine running the whole suite. */
export const BROWSER_TIMEOUT = 120_000;

/**
 * Says why `what` is skipped on this machine (nothing when it runs, or in CI, where it fails instead),
 * and, with CI=true, adds the test that fails when Chromium or the fonts are missing.
 */
export function requireBrowserInCi(what: string): void {
  if (!HAVE_CHROMIUM && !IN_CI)
    console.warn(
      `${what} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  if (MISSING_FONTS.length > 0 && !IN_CI)
    console.warn(`${what} skipped: no ${MISSING_FONTS.join(", ")} (apt-get install fonts-dejavu-core)`);
  describe("with CI=true", () => {
    it.runIf(IN_CI)(`has Chromium and fonts-dejavu-core, so the ${what} really runs`, () => {
      expect(HAVE_CHROMIUM, `CI=true but there is no Chromium at ${CHROMIUM}: .ci/run must install it`).toBe(
        true,
      );
      expect(MISSING_FONTS, "CI=true but fonts-dejavu-core is missing: .ci/run must install it").toEqual([]);
    });
  });
}

/**
 * The omnibox's popup, a page of Chromium's own interface (chrome://omnibox-popup.top-chrome/) that
 * headless Chromium loads at its start in a renderer of its own, though no page here has an
 * omnibox: about 150 to 300 ms of CPU a launch (bench/README.md, "Issue 35, eighth session:
 * i40-procs"). Disabled, it changes nothing a page renders (the screenshots keep their bytes).
 */
const OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/**
 * The features playwright-core disables (its chromiumSwitches.ts, 1.65.1). Chromium obeys only the
 * last `--disable-features` of its command line, and playwright's comes first: ours names them all
 * again, and `checkDisabledFeatures` fails a launch where it does not (playwright-core upgraded).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/** Launches headless Chromium with only the controlled fonts (written to a temp dir named `prefix…`). */
export async function launchBrowser(prefix: string): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--font-render-hinting=none",
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(",")}`,
    ],
    // Only the fonts of fonts.ts: fonts installed on the machine cannot change what is rendered.
    env: { ...process.env, ...controlledFonts(mkdtempSync(join(tmpdir(), prefix))) },
  });
  try {
    checkDisabledFeatures();
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/**
 * Fails when a Chromium this process started has a `--disable-features` naming a feature its last
 * one (the one Chromium obeys) leaves out: playwright-core disables one that
 * PLAYWRIGHT_DISABLED_FEATURES lacks. Read from /proc (Linux, where CI runs the browser tests).
 */
function checkDisabledFeatures(): void {
  if (!existsSync("/proc/self/stat")) return;
  for (const args of childCommandLines()) {
    if (!args[0]?.includes("chromium")) continue;
    const lists = args
      .filter((a) => a.startsWith("--disable-features="))
      .map((a) => a.slice("--disable-features=".length).split(","));
    const obeyed = new Set(lists.at(-1));
    const lost = lists.flat().filter((f) => !obeyed.has(f));
    if (lost.length > 0)
      throw new Error(
        `Chromium would not disable ${lost.join(", ")}: add them to PLAYWRIGHT_DISABLED_FEATURES in test/helpers/browser.ts`,
      );
  }
}

/** The command lines of this process's child processes (read from /proc). */
function childCommandLines(): string[][] {
  const out: string[][] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === process.pid) out.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
    } catch {
      // The process ended while it was being read.
    }
  }
  return out;
}

/** A page opened at `url`, `width` pixels wide, with the console errors and every request it made. */
export interface OpenedPage {
  /** The file URL opened (the page's URL with `?open=N`, N counting the opens of the tab). */
  readonly url: string;
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
}

/**
 * Loads `url` afresh in `page` at `width` (900 high; screen media, not print), recording console
 * errors and every request of this load only. Each load is a new document at a URL of its own
 * (`?open=N`): nothing of an earlier load's DOM, script, emulated media or scroll position carries
 * over (a second load of the same URL would get its scroll position restored).
 */
async function loadPage(page: Page, url: string, width: number, n: number): Promise<OpenedPage> {
  page.removeAllListeners("console");
  page.removeAllListeners("pageerror");
  page.removeAllListeners("request");
  await page.emulateMedia({ media: "screen" });
  await page.setViewportSize({ width, height: 900 });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  const opened = `${url}?open=${n}`;
  await page.goto(opened, { waitUntil: "load" });
  return { url: opened, page, errors, requests };
}

/**
 * In the enclosing describe: before its tests, `build()` makes the page (and returns its file URL)
 * and Chromium is launched (fonts in a temp dir named `prefix…`) with one tab (scale 1); after them,
 * it is closed. Returns how a test opens the page at a width: a fresh load in that tab (see
 * `loadPage`). One tab for the describe, not one per test: a new tab costs Chromium a new renderer
 * (about 300 ms of CPU), a new load in the same tab about 100 ms (bench/README.md, "Issue 35 suite
 * CPU: ci and browser tests"). Tests run one after another in a file, so one load is live at a time.
 */
export function pageInBrowser(
  prefix: string,
  build: () => Promise<string>,
): (width: number) => Promise<OpenedPage> {
  let browser: Browser | undefined;
  let tab: Page | undefined;
  let url = "";
  let opens = 0;
  beforeAll(async () => {
    url = await build();
    browser = await launchBrowser(prefix);
    tab = await browser.newPage({ deviceScaleFactor: 1 });
  }, BROWSER_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
  });
  return (width) => {
    if (tab === undefined) throw new Error("the browser did not start (see beforeAll)");
    opens += 1;
    return loadPage(tab, url, width, opens);
  };
}
