/**
 * The world of the replies tests: the example fixture's sandbox (virtual clock frozen between
 * moves, rate limits on), a campaign directory whose two projects have reply rules (GOTV Reminder in
 * English and Spanish, Volunteers), and helpers to text in, read the threads and run the commands
 * in-process with a captured terminal.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { expect } from "vitest";
import { stringify } from "yaml";
import { type RepliesPlanFlags, repliesPlanCommand } from "../../cli/commands/replies-plan.js";
import {
  type RepliesRunDeps,
  type RepliesRunFlags,
  repliesRunCommand,
} from "../../cli/commands/replies-run.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { captureIo } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { admin, GOTV_REMINDER, PARENT_KEY, VOLUNTEERS } from "../sandbox/helpers.js";

export const GOTV_NUMBER = "+15035550102";
export const VOLUNTEERS_NUMBER = "+18445550103";

export const ANSWERS = {
  where: "Find your polling place at vote.example.org/ward3. Polls are open 7am-7pm.",
  donde: "Encuentre su lugar de votacion en vote.example.org/ward3. Abierto de 7am a 7pm.",
  who: "This is Jane Doe's campaign for Ward 3 Council, texting from Riverside Democrats.",
  shift: "Thanks! Sign up for a volunteer shift at volunteer.example.org.",
} as const;

export const CAMPAIGN = {
  version: 1,
  organization: "Riverside Democrats",
  projects: {
    "gotv-reminder": {
      id: GOTV_REMINDER,
      phone_numbers: [GOTV_NUMBER],
      replies: {
        rules: [
          { name: "where", keywords: { en: ["where do i vote", "polling place"] }, answer: ANSWERS.where },
          { name: "donde", keywords: { es: ["dónde voto", "donde votar"] }, answer: ANSWERS.donde },
          { name: "who", pattern: "\\bwho (is|'s) this\\b|\\bquien (es|eres)\\b", answer: ANSWERS.who },
        ],
        max_per_conversation_per_day: 3,
      },
    },
    volunteers: {
      id: VOLUNTEERS,
      phone_numbers: [VOLUNTEERS_NUMBER],
      replies: {
        rules: [
          { name: "shift", keywords: ["volunteer", "shift", "help out"], answer: ANSWERS.shift },
          { name: "who", pattern: "\\bwho (is|'s) this\\b", answer: ANSWERS.who },
        ],
      },
    },
  },
};

/** Texts contacts send, with the rule that answers each (null: none, and why). */
export const TEXTS: readonly {
  readonly text: string;
  readonly rule: string | null;
  readonly project: "gotv" | "volunteers";
}[] = [
  { text: "Where do I vote??", rule: "where", project: "gotv" },
  { text: "what's my POLLING PLACE", rule: "where", project: "gotv" },
  { text: "¿Dónde voto?", rule: "donde", project: "gotv" },
  { text: "donde votar mañana", rule: "donde", project: "gotv" },
  { text: "Who is this?", rule: "who", project: "gotv" },
  { text: "quién eres", rule: "who", project: "gotv" },
  { text: "STOP", rule: null, project: "gotv" },
  { text: "No más, por favor", rule: null, project: "gotv" },
  { text: "Can I bring my kid with me?", rule: null, project: "gotv" },
  { text: "I can volunteer a shift on Saturday", rule: "shift", project: "volunteers" },
  { text: "unsubscribe", rule: null, project: "volunteers" },
  { text: "ok thanks", rule: null, project: "volunteers" },
];

/** A temporary directory holding the campaign file. */
export function campaignDir(campaign: unknown = CAMPAIGN): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-replies-"));
  writeFileSync(join(dir, "replies.yaml"), stringify(campaign));
  return dir;
}

/** Contact `n`'s phone (distinct per n). */
export const contact = (n: number): string => `+1971555${String(1000 + n).padStart(4, "0")}`;

/** Contact `n` texts `text` to `project` now (virtual clock); the inbound's message id and conversation. */
export async function textIn(
  sb: SandboxHandle,
  project: "gotv" | "volunteers",
  n: number,
  text: string,
): Promise<{ messageId: string; conversationId: string }> {
  const reply = await admin(sb, "POST", "/inbound", {
    project_id: project === "gotv" ? GOTV_REMINDER : VOLUNTEERS,
    contact_phone: contact(n),
    phone_number: project === "gotv" ? GOTV_NUMBER : VOLUNTEERS_NUMBER,
    text,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return {
    messageId: reply.body.data.message.message_id,
    conversationId: reply.body.data.conversation.conversation_id,
  };
}

/** Every thread of the world, oldest message first: what the contacts and we said. */
export function threads(
  sb: SandboxHandle,
): Map<
  string,
  readonly { readonly id: string; readonly direction: string; readonly text: string; readonly at: string }[]
> {
  const out = new Map<string, { id: string; direction: string; text: string; at: string }[]>();
  for (const c of Object.values(sb.store.world.conversations))
    out.set(
      c.conversation_id,
      c.messages.map((m) => ({ id: m.message_id, direction: m.direction, text: m.text, at: m.at })),
    );
  return out;
}

/** Answers (outbound messages with `text`) following the inbound `messageId` before the next inbound. */
export function answersAfter(sb: SandboxHandle, conversationId: string, messageId: string): string[] {
  const thread = threads(sb).get(conversationId) ?? [];
  const at = thread.findIndex((m) => m.id === messageId);
  const out: string[] = [];
  for (const m of thread.slice(at + 1)) {
    if (m.direction === "inbound") break;
    out.push(m.text);
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON documents are checked against their schemas
type Json = any;

function runLineErrors(line: unknown): string[] {
  return schemaErrors("replies-run-line", line);
}

/** `replies plan --json` in `cwd`, its document checked against its schema. */
export async function planJson(
  sb: SandboxHandle,
  cwd: string,
  flags: Partial<RepliesPlanFlags> = {},
): Promise<{ code: number; plan: Json; stderr: string }> {
  const io = captureIo({
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY },
    cwd,
    clock: () => sb.clock.nowMs(),
  });
  const outcome = await repliesPlanCommand([], { baseUrl: sb.baseUrl, json: true, ...flags }, io, {
    session: { clock: { now: () => sb.clock.nowMs() }, sleep: async (ms) => sb.clock.advance(ms) },
  });
  const plan = JSON.parse(io.out());
  expect(schemaErrors(plan.error === true ? "error-result" : "replies-plan", plan)).toEqual([]);
  return { code: exitCodeOf(outcome), plan, stderr: io.err() };
}

export interface RunResult {
  readonly code: number;
  readonly lines: readonly Json[];
  readonly stderr: string;
}

/** `replies run --json` in `cwd` on the virtual clock; every line checked against its schema. */
export async function runJson(
  sb: SandboxHandle,
  cwd: string,
  flags: Partial<RepliesRunFlags>,
  deps: Partial<RepliesRunDeps> = {},
  env: Readonly<Record<string, string>> = {},
): Promise<RunResult> {
  const io = captureIo({
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY, ...env },
    cwd,
    clock: () => sb.clock.nowMs(),
  });
  const outcome = await repliesRunCommand(
    [],
    {
      baseUrl: sb.baseUrl,
      json: true,
      // The listener's flags only where there is a listener (else they are a usage error).
      ...(flags.once === true || flags.webhooks === false ? {} : { port: 0, host: "127.0.0.1" }),
      state: ".campaignctl/replies",
      ...flags,
    },
    io,
    {
      session: { clock: { now: () => sb.clock.nowMs() }, sleep: async (ms) => sb.clock.advance(ms) },
      sleep: async (ms) => sb.clock.advance(ms),
      now: () => sb.clock.nowMs(),
      onInterrupt: () => () => {},
      backoffMs: 1000,
      ...deps,
    },
  );
  const lines = io
    .out()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);
  for (const line of lines)
    expect(
      line.error === true ? schemaErrors("error-result", line) : runLineErrors(line),
      JSON.stringify(line),
    ).toEqual([]);
  return { code: exitCodeOf(outcome), lines, stderr: io.err() };
}

/**
 * `replies run` with its listener (`--secret-env NAME`, the secret `value`), its idle waits moving
 * the virtual clock a second at a time (so an event is settled when it arrives): the listener's URL
 * once it listens, Ctrl-C (the injected interrupt) and the run's result.
 */
export function listeningRun(
  sb: SandboxHandle,
  cwd: string,
  secret: { readonly name: string; readonly value: string },
): { readonly url: Promise<string>; stop(): void; readonly result: Promise<RunResult> } {
  let stop: () => void = () => {};
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const result = runJson(
    sb,
    cwd,
    { secretEnv: [secret.name] },
    {
      sleep: async (ms) => {
        await sb.clock.advance(Math.min(ms, 1_000));
        await delay(0);
      },
      onInterrupt: (handler) => {
        stop = handler;
        return () => {};
      },
      onListening: (at) => listening(at),
    },
    { [secret.name]: secret.value },
  );
  return { url, stop: () => stop(), result };
}
