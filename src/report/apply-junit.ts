/**
 * An apply run as JUnit XML, for CI test-report views: one `<testsuite name="campaignctl apply">`
 * with one `<testcase classname="<address>" name="<kind>">` per action. A failed action is a
 * `<failure>` (type: its error code); skipped, blocked, deferred and not-started actions are
 * `<skipped>`; done and replayed actions pass, with their details in `<system-out>`. A refused plan
 * is one failing testcase `plan` listing the reasons. Pure; every value is XML 1.0-escaped, and
 * characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are
 * written as visible `\uXXXX` text.
 */

import { Duration } from "luxon";
import type { ActionResult, ApplyResult } from "../apply/types.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ListSyncResult } from "../email/list-results.js";
import {
  APPLY_STATUS_WORD,
  actionDetails,
  applySummaryLine,
  describeError,
  describeHeadline,
  describeUnreadable,
  durationMs,
  errorCodeOf,
  UNREADABLE_TITLE,
} from "./apply-describe.js";

/** The name of the one test suite. */
export const JUNIT_SUITE_NAME = "campaignctl apply";

/** Renders the JUnit XML document. The result ends with a newline. */
export function renderApplyJunit(result: ApplyResult): string {
  const cases =
    result.refused.length > 0
      ? [refusedCase(result)]
      : [
          ...result.actions.map(actionCase),
          ...(result.email?.lists ?? []).map(emailListCase),
          ...result.unreadable.map(unreadableCase),
        ];
  const failures = cases.filter((c) => c.outcome === "failure").length;
  const skipped = cases.filter((c) => c.outcome === "skipped").length;
  const suiteAttributes = attributes([
    ["name", JUNIT_SUITE_NAME],
    ["tests", String(cases.length)],
    ["failures", String(failures)],
    ["errors", "0"],
    ["skipped", String(skipped)],
    ["time", junitTime(durationMs(result.started_at, result.finished_at))],
    ["timestamp", result.started_at],
  ]);
  const properties: [string, string][] = [
    ["campaignctl.version", result.tool_version],
    ["apply.format_version", String(result.format_version)],
    ["api.base_url", result.base_url],
    ["plan.created_at", result.plan_created_at],
    ["apply.interrupted", String(result.interrupted)],
    ["apply.summary", applySummaryLine(result)],
  ];
  if (result.journal !== null) properties.push(["apply.journal", result.journal]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite${suiteAttributes}>`,
    "  <properties>",
    ...properties.map(
      ([name, value]) =>
        `    <property${attributes([
          ["name", name],
          ["value", value],
        ])}/>`,
    ),
    "  </properties>",
    ...cases.map((c) => c.xml),
    "</testsuite>",
  ];
  return `${lines.join("\n")}\n`;
}

interface Case {
  readonly outcome: "pass" | "failure" | "skipped";
  readonly xml: string;
}

function refusedCase(result: ApplyResult): Case {
  const first = result.refused[0];
  const message = `the plan was refused, so nothing was sent: ${result.refused.map((d) => d.message).join("; ")}`;
  const body = result.refused.map(diagnosticText).join("\n");
  const failure = `    <failure${attributes([
    ["message", message],
    ["type", first?.code ?? "refused"],
  ])}>${escapeText(body)}</failure>`;
  return {
    outcome: "failure",
    xml: [
      `  <testcase${attributes([
        ["classname", JUNIT_SUITE_NAME],
        ["name", "plan"],
        ["time", "0.000"],
      ])}>`,
      failure,
      "  </testcase>",
    ].join("\n"),
  };
}

/** One email list's sync as a test case (classname `email`): synced passes, failed fails, skipped skips. */
function emailListCase(l: ListSyncResult): Case {
  const open = `  <testcase${attributes([
    ["classname", "email"],
    ["name", l.address],
    ["time", "0.000"],
  ])}`;
  const out = `${l.address} (${l.list_id}): ${l.state}; ${l.rows} rows: ${l.accepted} accepted, ${l.rejected} rejected, ${l.refused} refused, ${l.not_sent} not sent${l.unknown > 0 ? `, ${l.unknown} unknown` : ""}`;
  const body = [out, ...l.diagnostics.map(diagnosticText)].join("\n");
  switch (l.state) {
    case "synced":
      return {
        outcome: "pass",
        xml: [`${open}>`, `    <system-out>${escapeText(body)}</system-out>`, "  </testcase>"].join("\n"),
      };
    case "skipped":
      return {
        outcome: "skipped",
        xml: [
          `${open}>`,
          `    <skipped${attributes([["message", "email is not available yet (EMAIL_EARLY_ACCESS)"]])}/>`,
          "  </testcase>",
        ].join("\n"),
      };
    case "failed": {
      const failure = `    <failure${attributes([
        ["message", `email list ${l.address} failed`],
        ["type", l.diagnostics[0]?.code ?? "email.batch-failed"],
      ])}>${escapeText(body)}</failure>`;
      return { outcome: "failure", xml: [`${open}>`, failure, "  </testcase>"].join("\n") };
    }
  }
}

function diagnosticText(d: Diagnostic): string {
  const where =
    d.range === undefined ? "" : `${d.range.file}:${d.range.start.line}:${d.range.start.column}: `;
  return `${where}${d.severity}[${d.code}]: ${d.message}${d.hint === undefined ? "" : `\n  hint: ${d.hint}`}`;
}

function actionCase(a: ActionResult): Case {
  const open = `  <testcase${attributes([
    ["classname", a.address],
    ["name", a.kind],
    ["time", junitTime(durationMs(a.started_at, a.finished_at))],
  ])}`;
  const details = actionDetails(a)
    .map((d) => (d.label === "" ? d.text : `${d.label}: ${d.text}`))
    .join("\n");
  const out = `${a.id}: ${describeHeadline(a)}${details === "" ? "" : `\n${details}`}`;
  const systemOut = `    <system-out>${escapeText(out)}</system-out>`;
  switch (a.status) {
    case "done":
    case "replayed":
      return { outcome: "pass", xml: [`${open}>`, systemOut, "  </testcase>"].join("\n") };
    case "failed":
    case "unknown": {
      const message = a.error === null ? APPLY_STATUS_WORD[a.status] : describeError(a.error);
      const fallback = a.status === "unknown" ? "apply.outcome-unknown" : "failed";
      const type = a.error === null ? fallback : errorCodeOf(a.error);
      const failure = `    <failure${attributes([
        ["message", message],
        ["type", type],
      ])}>${escapeText(out)}</failure>`;
      return { outcome: "failure", xml: [`${open}>`, failure, "  </testcase>"].join("\n") };
    }
    case "skipped":
    case "blocked":
    case "deferred":
    case "not-started": {
      const skipped = `    <skipped${attributes([["message", skipMessage(a)]])}/>`;
      return { outcome: "skipped", xml: [`${open}>`, skipped, systemOut, "  </testcase>"].join("\n") };
    }
  }
}

/** A project the files ask something of that could not be read: a failing testcase `read`. */
function unreadableCase(u: ApplyResult["unreadable"][number]): Case {
  const text = describeUnreadable(u);
  const failure = `    <failure${attributes([
    ["message", `unreadable: ${text}`],
    ["type", "apply.project-unreadable"],
  ])}>${escapeText(`${UNREADABLE_TITLE}\n${text}`)}</failure>`;
  return {
    outcome: "failure",
    xml: [
      `  <testcase${attributes([
        ["classname", u.address],
        ["name", "read"],
        ["time", "0.000"],
      ])}>`,
      failure,
      "  </testcase>",
    ].join("\n"),
  };
}

/** `blocked: <reason>` and so on: the status word and the detail that explains it. */
function skipMessage(a: ActionResult): string {
  const first = actionDetails(a)[0];
  return first === undefined ? APPLY_STATUS_WORD[a.status] : `${APPLY_STATUS_WORD[a.status]}: ${first.text}`;
}

/**
 * The JUnit XML `time` attribute: seconds as a decimal number with millisecond precision (`1.250`),
 * `0.000` when unknown. A machine format, not the human one (src/text/duration.ts).
 */
function junitTime(ms: number | null): string {
  return Duration.fromMillis(ms ?? 0)
    .as("seconds")
    .toFixed(3);
}

function attributes(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join("");
}

/**
 * Replaces what XML 1.0 cannot hold, even as a character reference: C0 controls other than tab, LF
 * and CR, lone surrogates, U+FFFE and U+FFFF. They become visible `\uXXXX` text.
 */
export function xmlSafe(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the controls XML 1.0 forbids is the point
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
}

/** Element text: `&`, `<`, `>` as entities (`>` too, so `]]>` never appears), CR as `&#13;` (kept, not normalised to LF). */
export function escapeText(text: string): string {
  return xmlSafe(text).replace(/[&<>\r]/g, (c) => ENTITY[c] ?? c);
}

/**
 * An attribute value in double quotes: also `"`, `'`, and tab, LF and CR as character references,
 * which attribute-value normalisation would otherwise turn into spaces.
 */
export function escapeAttribute(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\t\n\r]/g, (c) => ENTITY[c] ?? c);
}

const ENTITY: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};
