/**
 * The listener redacts each printed line once (issue 36): through the CLI's io, which already masks
 * the signing secrets (cli/output/output-redaction.ts), it adds no redactor of its own; with an io that
 * masks nothing (a test's, a bench's) it brings its own. Either way no trace of a secret is printed.
 */
import { describe, expect, test } from "vitest";
import { listenerRedactor, startWebhooksListener } from "../../cli/commands/webhooks-listen.js";
import type { Io } from "../../cli/output/io.js";
import { redactingIo, redactorFor } from "../../cli/output/output-redaction.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { createRedactor } from "../../src/text/redact.js";
import { captureIo } from "../helpers/run-cli.js";
import { tempDir } from "../plan-command/fixture-builder.js";
import { post, SECRET, START_MS, unixSeconds } from "./harness.js";

const secrets = [{ name: "WH_SECRET", value: SECRET }];
const ARGV = ["webhooks", "listen", "--secret-env", "WH_SECRET"];

describe("each line the listener prints is redacted once", () => {
  test("the CLI's io masks the secrets: the listener adds nothing; a bare io: the listener masks them itself", () => {
    const bare = captureIo({ env: { WH_SECRET: SECRET } });
    const cli = redactingIo(bare, redactorFor(ARGV, bare.env));
    const line = `text: ${SECRET.toUpperCase()}\n`;
    // Through the CLI's io: the identity (the io redacts), and what the io prints is masked.
    expect(listenerRedactor(cli, secrets)(line)).toBe(line);
    cli.stdout(listenerRedactor(cli, secrets)(line));
    expect(bare.out()).toBe("text: [redacted]\n");
    // An io whose redactor does not know this secret (another variable): the listener's own.
    const other = redactingIo(bare, createRedactor(["whsec_some_other_secret_value"]));
    expect(listenerRedactor(other, secrets)(line)).toBe("text: [redacted]\n");
    // An io with no redactor at all.
    expect(listenerRedactor(bare, secrets)(line)).toBe("text: [redacted]\n");
  });

  test("through the CLI's io, a delivery echoing the secret is printed once, masked, with one redaction a write", async () => {
    const captured = captureIo({
      env: { NO_COLOR: "1", WH_SECRET: SECRET },
      cwd: tempDir({}),
      clock: () => START_MS,
    });
    const redactor = redactorFor(ARGV, captured.env);
    let redactions = 0;
    let writes = 0;
    const counted: Io = {
      ...captured,
      stdout: (text) => {
        writes += 1;
        captured.stdout(text);
      },
      stderr: (text) => {
        writes += 1;
        captured.stderr(text);
      },
    };
    const io = redactingIo(counted, (text) => {
      redactions += 1;
      return redactor(text);
    });
    const started = await startWebhooksListener(
      { port: 0, host: "127.0.0.1", secretEnv: ["WH_SECRET"], json: true, state: "state" },
      io,
    );
    if (!started.ok) throw new Error(captured.err());
    const body = Buffer.from(
      JSON.stringify({
        conversation_id: "c-1",
        message_id: "in-1",
        from: "+15035550110",
        to: "+15035550101",
        text: `my key is ${SECRET}`,
        is_opt_out: false,
        is_opt_in: false,
      }),
    );
    const sent = await post(started.listener.url, {
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": signBody(SECRET, body),
        "x-event-type": "message.replied",
        "x-event-id": "evt_1",
        "x-timestamp": unixSeconds(START_MS),
      },
      body,
    });
    expect(sent.status).toBe(200);
    await started.listener.stop();
    expect(captured.out()).toContain("[redacted]");
    expect(captured.out().toLowerCase()).not.toContain(SECRET.slice(0, 12).toLowerCase());
    // One redaction a write, and one more: the listener's check, at start, that the io masks its secret.
    expect(redactions).toBe(writes + 1);
  });
});
