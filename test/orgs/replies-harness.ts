/**
 * `replies plan` and `replies run` in process over an organizations bed (./harness.ts), on the
 * sandbox's virtual clock, every document checked against its schema; and what the sandbox logged
 * (`/_sandbox/requests`, with each request's `key_organization_id`). Shared by the tests of keys per
 * organization with reply rules (owner-keys.test.ts, template-replies-owner-key.test.ts).
 */
import { expect } from "vitest";
import { type RepliesPlanFlags, repliesPlanCommand } from "../../cli/commands/replies-plan.js";
import { type RepliesRunFlags, repliesRunCommand } from "../../cli/commands/replies-run.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { captureIo } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin } from "../sandbox/helpers.js";
import { type Bed, type LogEntry, virtual } from "./harness.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON documents are checked against their schemas
export type Json = any;

/** Every request the sandbox logged since it started (or since `clearLog`). */
export async function log(b: Bed): Promise<(LogEntry & { route: string | null })[]> {
  return (await admin(b.sb, "GET", "/requests")).body.data.requests;
}

export async function clearLog(b: Bed): Promise<void> {
  await admin(b.sb, "DELETE", "/requests");
}

/** The answers sent: POST /conversations/{id}/messages. */
export const replyPosts = (entries: readonly LogEntry[]) =>
  entries.filter((r) => r.method === "POST" && r.route === "/conversations/{conversation_id}/messages");

/** Contact `n` of county `i` texts `phone`, the number of the county's first project. */
export async function textIn(b: Bed, i: number, n: number, phone: string, text: string): Promise<void> {
  const org = b.world.orgs[i - 1];
  const reply = await admin(b.sb, "POST", "/inbound", {
    project_id: org?.projects[0]?.id,
    contact_phone: `+1971555${String(100 * i + n).padStart(4, "0")}`,
    phone_number: phone,
    text,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** `replies run --once --no-webhooks --json` over `campaign/`: its exit code and its lines. */
export async function repliesRun(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<RepliesRunFlags> = {},
): Promise<{ code: number; lines: Json[]; out: string; stderr: string }> {
  const io = captureIo({ env: { NO_COLOR: "1", ...env }, cwd: b.world.dir, clock: () => b.sb.clock.nowMs() });
  const v = virtual(b);
  const outcome = await repliesRunCommand(
    ["campaign"],
    {
      baseUrl: b.sb.baseUrl,
      json: true,
      once: true,
      webhooks: false,
      state: ".campaignctl/replies",
      ...flags,
    },
    io,
    {
      session: v,
      sleep: v.sleep,
      now: () => b.sb.clock.nowMs(),
      onInterrupt: () => () => {},
      backoffMs: 1000,
    },
  );
  // One JSON line per event, or one error document (indented) when the run stops before it starts.
  const out = io.out();
  const lines = out.startsWith("{\n")
    ? [JSON.parse(out) as Json]
    : out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Json);
  for (const line of lines)
    expect(schemaErrors(line.error === true ? "error-result" : "replies-run-line", line)).toEqual([]);
  return { code: exitCodeOf(outcome), lines, out: io.out(), stderr: io.err() };
}

/** `replies plan --json` over `campaign/`: its exit code and its document. */
export async function repliesPlan(
  b: Bed,
  env: Record<string, string>,
  flags: Partial<RepliesPlanFlags> = {},
): Promise<{ code: number; doc: Json; stderr: string }> {
  const io = captureIo({ env: { NO_COLOR: "1", ...env }, cwd: b.world.dir, clock: () => b.sb.clock.nowMs() });
  const outcome = await repliesPlanCommand(
    ["campaign"],
    { baseUrl: b.sb.baseUrl, json: true, ...flags },
    io,
    { session: virtual(b) },
  );
  const doc = JSON.parse(io.out());
  expect(schemaErrors(doc.error === true ? "error-result" : "replies-plan", doc)).toEqual([]);
  return { code: exitCodeOf(outcome), doc, stderr: io.err() };
}
