/**
 * `campaignctl webhooks verify --headers FILE --body FILE`: checks one stored delivery exactly as
 * `webhooks listen` checks a live one (signature over the body file's raw bytes against every
 * `--secret-env` secret, then the timestamp, the headers and the body), for integrators' own tests.
 * The timestamp is judged against `--now` when given (a stored delivery is old by nature), else this
 * machine's clock. No dedupe: one delivery has nothing to repeat. Exit 0 valid, 1 invalid (with the
 * reason as a diagnostic) or unreadable input. `--json` prints schemas/webhook-verify-result.schema.json.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Diagnostic, SourceRange } from "../../src/diagnostics/diagnostic.js";
import { diagnosticJson } from "../../src/diagnostics/json.js";
import { printable } from "../../src/report/webhooks-listen-view.js";
import { parseHeadersFile } from "../../src/webhooks/headers-file.js";
import type { Delivery } from "../../src/webhooks/types.js";
import { verifyDelivery } from "../../src/webhooks/verify.js";
import { failWith } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { secretsFromEnv } from "./webhooks-flags.js";

/** The format_version of the `webhooks verify --json` document. */
export const VERIFY_FORMAT_VERSION = 1;

/** The flags of `webhooks verify`, as commander parses them. */
export interface WebhooksVerifyFlags {
  readonly headers: string;
  readonly body: string;
  readonly secretEnv?: readonly string[];
  readonly json?: boolean;
  /** `--now`: the instant the timestamp is judged at; undefined: this machine's clock. */
  readonly now?: Date;
}

export async function runWebhooksVerify(flags: WebhooksVerifyFlags, io: Io): Promise<Outcome> {
  const json = { json: flags.json === true, formatVersion: VERIFY_FORMAT_VERSION };
  const secrets = secretsFromEnv(flags.secretEnv, io);
  const headersText = await read(flags.headers, "utf8", io);
  const body = await read(flags.body, null, io);
  const problems: Diagnostic[] = [
    ...(secrets.ok ? [] : secrets.diagnostics),
    ...(headersText.ok ? [] : [headersText.diagnostic]),
    ...(body.ok ? [] : [body.diagnostic]),
  ];
  if (!secrets.ok || !headersText.ok || !body.ok) return failWith(problems, new Map(), io, json);
  const headers = parseHeadersFile(headersText.value);
  if (!headers.ok) {
    const diagnostic: Diagnostic = {
      severity: "error",
      code: "webhooks.bad-headers-file",
      message: `${flags.headers} is not a headers file: ${headers.message}`,
      hint: 'Give a JSON object ({"X-Webhook-Signature": "sha256=...", ...}) or one "Name: value" line per header',
      ...(headers.line === null ? {} : { range: lineRange(flags.headers, headersText.value, headers.line) }),
    };
    return failWith([diagnostic], new Map([[flags.headers, headersText.value]]), io, json);
  }
  const delivery: Delivery = { headers: headers.headers, body: body.value };
  const verdict = verifyDelivery(delivery, {
    secrets: secrets.secrets,
    nowMs: flags.now?.getTime() ?? io.clock(),
  });
  if (flags.json === true) {
    io.stdout(
      `${JSON.stringify(
        {
          format_version: VERIFY_FORMAT_VERSION,
          valid: verdict.ok,
          event_id: verdict.ok ? verdict.event.eventId : verdict.rejection.eventId,
          event_type: verdict.ok ? verdict.event.kind : verdict.rejection.kind,
          timestamp: verdict.ok ? new Date(verdict.event.timestampMs).toISOString() : null,
          secret: verdict.ok ? verdict.event.secretName : null,
          body_key: verdict.ok ? verdict.event.bodyKey : null,
          diagnostics: verdict.ok ? [] : [diagnosticJson(verdict.rejection.diagnostic)],
        },
        null,
        2,
      )}\n`,
    );
  }
  if (!verdict.ok) {
    printDiagnostics(io, "stderr", [verdict.rejection.diagnostic], new Map(), { verbose: false });
    return failure;
  }
  if (flags.json !== true) {
    const { event } = verdict;
    io.stdout(
      `valid: ${printable(event.kind)} event ${printable(event.eventId)}, signed with ${event.secretName}, X-Timestamp ${new Date(event.timestampMs).toISOString()}, body key ${printable(event.bodyKey, 120)}\n`,
    );
  }
  return success;
}

type Read<T> = { ok: true; value: T } | { ok: false; diagnostic: Diagnostic };

async function read(path: string, encoding: "utf8", io: Io): Promise<Read<string>>;
async function read(path: string, encoding: null, io: Io): Promise<Read<Buffer>>;
async function read(path: string, encoding: "utf8" | null, io: Io): Promise<Read<string | Buffer>> {
  try {
    const full = resolve(io.cwd, path);
    return { ok: true, value: encoding === null ? await readFile(full) : await readFile(full, encoding) };
  } catch (error) {
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "cli.file-unreadable",
        message: `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

/** The whole of 1-based `line` of `text` as a source range. */
function lineRange(file: string, text: string, line: number): SourceRange {
  const lines = text.split("\n");
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const length = (lines[line - 1] ?? "").replace(/\r$/, "").length;
  return {
    file,
    start: { line, column: 1, offset },
    end: { line, column: length + 1, offset: offset + length },
  };
}
