/**
 * `webhooks verify` on deliveries the sandbox's webhook sender really made (captured by a receiver
 * on loopback and stored as a headers file and a body file, as an integrator would): exit 0 and what
 * it found when valid, exit 1 with the reason when not, its JSON document against its schema.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runWebhooksVerify, type WebhooksVerifyFlags } from "../../cli/commands/webhooks-verify.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { captureIo } from "../helpers/run-cli.js";
import { type Received, type Receiver, startReceiver } from "../sandbox/sending-fixture.js";
import { expectValid, runSend, SECRET, SECRET_ENV, sendingSandbox } from "./harness.js";

let sb: SandboxHandle;
let capture: Receiver;
let dir = "";
let replied: Received;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-verify-"));
  capture = await startReceiver(200);
  sb = await sendingSandbox([capture.url]);
  await runSend(sb);
  const found = capture.received.find((r) => r.headers["x-event-type"] === "message.replied");
  if (found === undefined) throw new Error("no message.replied delivery captured");
  replied = found;
  const contract = ["content-type", "x-webhook-signature", "x-event-type", "x-event-id", "x-timestamp"];
  const pick = (r: Received) => Object.fromEntries(contract.map((h) => [h, String(r.headers[h])]));
  writeFileSync(join(dir, "headers.json"), JSON.stringify(pick(replied), null, 2));
  writeFileSync(
    join(dir, "headers.txt"),
    `POST /hooks HTTP/1.1\n${contract.map((h) => `${h}: ${String(replied.headers[h])}`).join("\n")}\n`,
  );
  writeFileSync(join(dir, "body.json"), replied.raw);
  writeFileSync(join(dir, "body-newline.json"), Buffer.concat([replied.raw, Buffer.from("\n")]));
  writeFileSync(join(dir, "broken.headers"), "X-Event-ID: evt_1\nnot a header line\n");
});

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
  await capture.close();
});

const at = () => new Date(Number(replied.headers["x-timestamp"]) * 1000);

async function verify(over: Partial<WebhooksVerifyFlags>, env: Record<string, string> = SECRET_ENV) {
  const io = captureIo({ env, cwd: dir });
  const flags: WebhooksVerifyFlags = {
    headers: "headers.json",
    body: "body.json",
    secretEnv: ["WH_SECRET"],
    now: at(),
    ...over,
  };
  const code = exitCodeOf(await runWebhooksVerify(flags, io));
  return { code, stdout: io.out(), stderr: io.err() };
}

describe("webhooks verify", () => {
  test.each(["headers.json", "headers.txt"])(
    "a stored delivery with %s is valid: exit 0, and what was found",
    async (headers) => {
      const { code, stdout, stderr } = await verify({ headers });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      const id = String(replied.headers["x-event-id"]);
      const messageId = JSON.parse(replied.raw.toString("utf8")).message_id;
      expect(stdout).toBe(
        `valid: message.replied event ${id}, signed with WH_SECRET, X-Timestamp ${at().toISOString()}, body key message.replied:${messageId}\n`,
      );
    },
  );

  test("--json prints the result document", async () => {
    const { code, stdout } = await verify({ json: true });
    const document = JSON.parse(stdout);
    expectValid("webhook-verify-result", document);
    expect(code).toBe(0);
    expect(document).toMatchObject({
      valid: true,
      event_type: "message.replied",
      secret: "WH_SECRET",
      diagnostics: [],
    });
  });

  test.each([
    {
      name: "a final newline added to the body",
      over: { body: "body-newline.json" },
      env: SECRET_ENV,
      code: "webhooks.bad-signature",
    },
    {
      name: "another secret",
      over: {},
      env: { WH_SECRET: "whsec_not_the_endpoints" },
      code: "webhooks.bad-signature",
    },
    {
      name: "judged at this machine's clock (months away)",
      over: { now: undefined },
      env: SECRET_ENV,
      code: "webhooks.stale-timestamp",
    },
  ])("$name: exit 1 with $code", async ({ over, env, code }) => {
    const text = await verify(over, env);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain(`error[${code}]`);
    const json = await verify({ ...over, json: true }, env);
    const document = JSON.parse(json.stdout);
    expectValid("webhook-verify-result", document);
    expect(json.code).toBe(1);
    expect(document).toMatchObject({ valid: false, secret: null, body_key: null, diagnostics: [{ code }] });
    expect(json.stdout + json.stderr).not.toContain(SECRET);
  });

  test.each([
    {
      name: "a headers file with a line that is not a header",
      over: { headers: "broken.headers" },
      env: SECRET_ENV,
      code: "webhooks.bad-headers-file",
      says: "broken.headers:2:1",
    },
    {
      name: "a body file that does not exist",
      over: { body: "missing.json" },
      env: SECRET_ENV,
      code: "cli.file-unreadable",
      says: "missing.json",
    },
    {
      name: "a secret variable that is not set",
      over: {},
      env: { NO_COLOR: "1" },
      code: "webhooks.no-secret",
      says: "WH_SECRET is not set",
    },
  ])("$name: exit 1 with $code, and the error document with --json", async ({ over, env, code, says }) => {
    const text = await verify(over, env);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(code);
    expect(text.stderr).toContain(says);
    const json = await verify({ ...over, json: true }, env);
    const document = JSON.parse(json.stdout);
    expectValid("error-result", document);
    expect(document.diagnostics.map((d: { code: string }) => d.code)).toEqual([code]);
  });
});
