/**
 * One CLI: every command takes `--json` and prints exactly one JSON document on stdout, on success
 * and on failure, and each document validates against its schema in `schemas/` (ajv 2020-12).
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runSandbox } from "../../cli/commands/sandbox.js";
import { TEST_NOW } from "../helpers/clock.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { documentOf, schemaErrors } from "../helpers/schemas.js";
import { until } from "../helpers/until.js";
import {
  campaignFile,
  fileProject,
  KEY,
  liveProject,
  TEST_BLOCK,
  tempDir,
} from "../plan-command/fixture-builder.js";
import { withCase } from "../plan-command/harness.js";
import { admin } from "../sandbox/helpers.js";

const CLEAN = `version: 1
projects:
  hello:
    id: hello-1
    message: "Hi {{first_name|friend}}, polls are open 7am-7pm. Reply STOP to opt out"
    test:
      contacts:
        - phone: "+15035550150"
          merge_values: { first_name: Maria }
`;
const BROKEN = "version: 1\nprojects:\n  a:\n    id: x\n    shedule: {at: now, timezone: America/Chicago}\n";

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-json-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const codes = (doc: Record<string, unknown>): string[] =>
  (doc.diagnostics as { code: string }[]).map((d) => d.code);

describe("validate --json", () => {
  test("success and failure print the validate document", async () => {
    const ok = await runCli(["validate", "--json"], { cwd: dirWith({ "a.yaml": CLEAN }) });
    expect(ok.code).toBe(0);
    expect(documentOf("validate-result", ok.stdout).summary).toEqual({ errors: 0, warnings: 0 });
    const bad = await runCli(["validate", "--json"], { cwd: dirWith({ "a.yaml": BROKEN }) });
    expect(bad.code).toBe(1);
    expect(codes(documentOf("validate-result", bad.stdout))).toEqual(["campaign.unknown-key"]);
    // The schemas tell the documents apart: a validate document is no error document.
    expect(schemaErrors("error-result", JSON.parse(bad.stdout))).not.toEqual([]);
  });

  test("a usage error still prints one document: the error document", async () => {
    const r = await runCli(["validate", "--json", "--format", "text"], { cwd: dirWith({ "a.yaml": CLEAN }) });
    expect(r.code).toBe(1);
    expect(codes(documentOf("error-result", r.stdout))).toEqual(["cli.usage"]);
    expect(r.stderr).toContain("--json and --format text disagree");
  });
});

describe("preview --json", () => {
  test("--json is --format json, and both print the preview document", async () => {
    const cwd = dirWith({ "a.yaml": CLEAN });
    const short = await runCli(["preview", "--json"], { cwd });
    const long = await runCli(["preview", "--format", "json"], { cwd });
    expect(short).toEqual(long);
    expect(short.code).toBe(0);
    const doc = documentOf("preview-result", short.stdout);
    expect((doc.projects as { address: string }[]).map((p) => p.address)).toEqual(["hello"]);
  });

  test("invalid files and an unknown --target print the preview document with the reasons", async () => {
    const bad = await runCli(["preview", "--json"], { cwd: dirWith({ "a.yaml": BROKEN }) });
    expect(bad.code).toBe(1);
    expect(documentOf("preview-result", bad.stdout).projects).toEqual([]);
    const unknown = await runCli(["preview", "--json", "--target", "helo"], {
      cwd: dirWith({ "a.yaml": CLEAN }),
    });
    expect(unknown.code).toBe(1);
    expect(codes(documentOf("preview-result", unknown.stdout))).toEqual(["cli.usage"]);
  });
});

const NOW = TEST_NOW;
const ONE = {
  live: [liveProject(1, NOW)],
  files: { first: fileProject(1, { state: "tested", test: TEST_BLOCK }) },
};

describe("plan --json and apply --json against a sandbox", () => {
  test("success: the plan document, then the apply result document", async () => {
    await withCase(ONE, async (sandbox, dir) => {
      const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl };
      const plan = await runCli(["plan", "--json"], { cwd: dir, env });
      expect(plan.code).toBe(0);
      documentOf("plan", plan.stdout);
      const apply = await runCli(["apply", "--json", "--auto-approve"], { cwd: dir, env });
      expect(apply.code).toBe(0);
      documentOf("apply-result", apply.stdout);
    });
  });

  test("failure before any request: the error document, for plan and for apply", async () => {
    const dir = tempDir({ "campaign.yaml": `${campaignFile({ first: fileProject(1) })}bogus: 1\n` });
    const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: "http://127.0.0.1:9/v1" };
    for (const argv of [
      ["plan", "--json"],
      ["apply", "--json", "--auto-approve"],
    ]) {
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(codes(documentOf("error-result", r.stdout))).toContain("campaign.unknown-key");
      expect(r.stderr).toContain("error[campaign.unknown-key]");
    }
  });

  test("an unknown flag with --json: the error document", async () => {
    const r = await runCli(["plan", "--json", "--no-such-flag"]);
    expect(r.code).toBe(1);
    expect(codes(documentOf("error-result", r.stdout))).toEqual(["cli.usage"]);
  });
});

describe("sandbox --json", () => {
  const flags = { port: 0, host: "127.0.0.1", timeScale: 0, rateLimits: true, seed: 1, json: true };

  test("one line on startup: URLs, env names, organizations, keys; nothing else on stdout", async () => {
    const io = captureIo({ env: {} });
    const { out, err } = io;
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((done) => {
      stop = done;
    });
    const running = runSandbox(flags, io, stopped);
    let ended = false;
    void running.finally(() => {
      ended = true;
    });
    await until(() => out() !== "" || ended); // a sandbox that could not start has ended
    const line = out();
    expect(line.endsWith("\n") && line.indexOf("\n") === line.length - 1).toBe(true);
    const info = documentOf("sandbox-info", line);
    expect((await admin({ rootUrl: info.root_url as string }, "GET", "/clock")).status).toBe(200);
    expect((info.organizations as unknown[]).length).toBeGreaterThan(0);
    stop();
    expect(await running).toEqual({ kind: "success" });
    expect(out()).toBe(line);
    expect(err()).toContain("sandbox stopped at virtual time");
  });

  test("a sandbox that cannot start prints the error document", async () => {
    const io = captureIo({ env: {} });
    const { out, err } = io;
    const outcome = await runSandbox({ ...flags, fixture: "no-such-fixture.yaml" }, io, Promise.resolve());
    expect(outcome).toEqual({ kind: "failure" });
    expect(codes(documentOf("error-result", out()))).toEqual(["cli.sandbox-unavailable"]);
    expect(err()).toContain("no-such-fixture.yaml");
  });
});
