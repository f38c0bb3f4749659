/**
 * The views of `preview` and `validate` (src/report/preview-view.ts, validate-view.ts): chosen once by
 * format, they alone decide what each stream gets; the commands never branch on the format.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { summarize } from "../../src/campaign/validate-report.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { previewProject } from "../../src/message/preview.js";
import { renderPreviewText } from "../../src/report/preview-text.js";
import { previewView } from "../../src/report/preview-view.js";
import { validateView } from "../../src/report/validate-view.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const loaded = loadCampaign(["examples"], fileURLToPath(new URL("../../", import.meta.url)));
const files = loaded.campaign.files;
const previews = loaded.campaign.projects.slice(0, 2).map((p) => previewProject(p, {}));
const file = files[0]?.path ?? `${EXAMPLES}missing`;
const finding = (severity: Diagnostic["severity"], message: string): Diagnostic => ({
  severity,
  code: "lint.schedule-in-past",
  message,
  range: { file, start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } },
});
const warning = finding("warning", "a warning");
const info = finding("info", "an info note");
const plain = { stdoutColor: false, stderrColor: false, verbose: false };

describe("previewView", () => {
  const run = { files, projectCount: 2, previews, diagnostics: [warning, info], gallery: false };

  test("text: previews on stdout; shown findings, the summary and the hidden-info note on stderr", () => {
    const printed = previewView("text", plain)(run);
    expect(printed.stdout).toBe(renderPreviewText(previews, false));
    expect(printed.stderr).toContain("warning[lint.schedule-in-past]: a warning");
    expect(printed.stderr).not.toContain("an info note");
    expect(
      printed.stderr.endsWith(`: 0 errors, 1 warning (1 info note hidden: --verbose shows them)\n`),
    ).toBe(true);
  });

  test("text with the gallery written: no previews, the findings still on stderr", () => {
    const printed = previewView("text", plain)({ ...run, gallery: true });
    expect(printed.stdout).toBe("");
    expect(printed.stderr).toBe(previewView("text", plain)(run).stderr);
  });

  test("text without findings prints nothing on stderr; verbose shows the info note", () => {
    expect(previewView("text", plain)({ ...run, diagnostics: [] }).stderr).toBe("");
    expect(previewView("text", { ...plain, verbose: true })(run).stderr).toContain("an info note");
  });

  test("json: one document on stdout, the previews kept with the gallery written", () => {
    const printed = previewView("json", plain)({ ...run, gallery: true });
    expect(printed.stderr).toBe("");
    const document = JSON.parse(printed.stdout) as { projects: unknown[]; diagnostics: unknown[] };
    expect(document.projects).toHaveLength(2);
    expect(document.diagnostics).toHaveLength(2);
  });
});

describe("validateView", () => {
  const diagnostics = [warning, info];
  const run = { files, summary: summarize(files, 2, diagnostics), diagnostics, policy: null };

  test("text: findings, no policy line when the policy could not be read, the summary", () => {
    const text = validateView("text", { color: false, verbose: false })(run);
    expect(text).toContain("warning[lint.schedule-in-past]: a warning");
    expect(text).not.toContain("policy:");
    expect(text.endsWith(`: 0 errors, 1 warning (1 info note hidden: --verbose shows them)\n`)).toBe(true);
  });

  test("text: the policy in force named, `none` when no file applies", () => {
    const view = validateView("text", { color: false, verbose: true });
    expect(view({ ...run, policy: { files: [], texts: new Map() } })).toContain("\npolicy: none\n");
    expect(view({ ...run, policy: { files: ["a/campaignctl.policy.yaml"], texts: new Map() } })).toContain(
      "\npolicy: a/campaignctl.policy.yaml\n",
    );
  });

  test("json: the policy files in force, none when the policy could not be read", () => {
    const json = (policy: typeof run.policy | { files: string[]; texts: Map<string, string> }) =>
      JSON.parse(validateView("json", { color: false, verbose: false })({ ...run, policy })) as {
        policy_files: string[];
        diagnostics: unknown[];
      };
    expect(json(null).policy_files).toEqual([]);
    expect(json({ files: ["p.yaml"], texts: new Map() }).policy_files).toEqual(["p.yaml"]);
    expect(json(null).diagnostics).toHaveLength(2);
  });
});
