/**
 * The table of API requests by endpoint is in the terminal reports of plan and apply only with
 * --verbose (the summary line keeps the total); their JSON documents always carry the counts.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const TABLE = /^API requests by endpoint \(.*\):\n( +\d+ {2}(GET|POST) \/.*\n)+/m;

function world(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-requests-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  return cwd;
}

describe("the per-endpoint request table", () => {
  test("plan shows it with --verbose only; the JSON always has the counts", async () => {
    const cwd = world();
    const plain = await runCli(["plan", "--sandbox", "examples/"], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^Plan: .* \d+ API requests\.\n$/m);
    expect(plain.stdout).not.toContain("API requests by endpoint");
    const verbose = await runCli(["plan", "--sandbox", "examples/", "--verbose"], { cwd });
    expect(verbose.stdout).toMatch(TABLE);
    const json = await runCli(["plan", "--sandbox", "examples/", "--json"], { cwd });
    const byEndpoint = (JSON.parse(json.stdout) as { requests: { by_endpoint: Record<string, number> } })
      .requests.by_endpoint;
    expect(Object.keys(byEndpoint).length).toBeGreaterThan(0);
  }, 30_000);

  test("apply shows it with --verbose only", async () => {
    const cwd = world();
    const plain = await runCli(["apply", "--sandbox", "--auto-approve", "examples/"], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^Apply complete: .* \d+ API requests, /m);
    expect(plain.stdout).not.toContain("API requests by endpoint");
    const verbose = await runCli(["apply", "--sandbox", "--auto-approve", "--verbose", "examples/"], {
      cwd: world(),
    });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout.match(new RegExp(TABLE.source, "gm"))?.length).toBe(2); // the plan's, the result's
  }, 60_000);
});
