/**
 * The registration of `webhooks listen` and `webhooks verify` (cli/register/webhooks.ts) on a
 * command tree of its own, as cli/program.ts builds it: flags, defaults, repeatable options, and the
 * verify command run end to end through commander.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { describe, expect, test } from "vitest";
import type { Outcome } from "../../cli/output/outcome.js";
import { registerWebhooks } from "../../cli/register/webhooks.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { type CapturedIo, captureIo } from "../helpers/run-cli.js";

function program(io: CapturedIo, outcomes: Outcome[]): Command {
  const root = new Command("campaignctl")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerWebhooks(root, io, (o) => outcomes.push(o));
  for (const c of root.commands) {
    c.exitOverride();
    for (const sub of c.commands) sub.exitOverride();
  }
  return root;
}

describe("campaignctl webhooks (registration)", () => {
  test("listen --help shows every flag and its default", async () => {
    const io = captureIo();
    await expect(
      program(io, []).parseAsync(["webhooks", "listen", "--help"], { from: "user" }),
    ).rejects.toThrow(CommanderError);
    for (const words of [
      "--port <n>",
      "(default: 8787)",
      '(default: "127.0.0.1")',
      "--secret-env <name>",
      "(default: CAMPAIGNCTL_WEBHOOK_SECRET)",
      "--events <kinds>",
      "--json",
      "--forward-to <url>",
      '(default: ".campaignctl/webhooks")',
      "docs/webhooks.md",
    ])
      expect(io.out().replace(/\s+/g, " ")).toContain(words);
  });

  test("verify runs through commander, with --secret-env repeated and --now parsed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-register-"));
    const body = Buffer.from('{"message_id":"m-1","status":"delivered"}');
    writeFileSync(join(dir, "body.json"), body);
    writeFileSync(
      join(dir, "headers.txt"),
      [
        `X-Webhook-Signature: ${signBody("whsec_new_one", body)}`,
        "X-Event-Type: message.delivered",
        "X-Event-ID: evt_1",
        "X-Timestamp: 1796137200",
      ].join("\n"),
    );
    const io = captureIo({ cwd: dir, env: { OLD: "whsec_old_one", NEW: "whsec_new_one" } });
    const outcomes: Outcome[] = [];
    await program(io, outcomes).parseAsync(
      [
        "webhooks",
        "verify",
        "--headers",
        "headers.txt",
        "--body",
        "body.json",
        "--secret-env",
        "OLD",
        "--secret-env",
        "NEW",
        "--now",
        "2026-12-01T15:02:00Z",
      ],
      { from: "user" },
    );
    expect(outcomes).toEqual([{ kind: "success" }]);
    expect(io.out()).toBe(
      "valid: message.delivered event evt_1, signed with NEW, X-Timestamp 2026-12-01T15:00:00.000Z, body key message.delivered:m-1\n",
    );
  });

  test("verify refuses a --now without a zone as a usage error", async () => {
    const io = captureIo();
    await expect(
      program(io, []).parseAsync(
        ["webhooks", "verify", "--headers", "h", "--body", "b", "--now", "2026-12-01 15:00"],
        {
          from: "user",
        },
      ),
    ).rejects.toThrow(/ISO 8601 date-time with a zone/);
  });
});
