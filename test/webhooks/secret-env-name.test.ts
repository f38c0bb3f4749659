/**
 * `--secret-env` takes the NAME of a variable: a signing secret pasted in its place (the dashboard
 * shows `whsec_...` once, and a hurried operator pastes it after the flag) must never be printed, in
 * any case or in part, by any command that reads the flag (`webhooks listen`, `webhooks verify`,
 * `replies run --listen`), on stderr or in a `--json` document. The whole CLI is run (the output
 * redactor included), with the secret in no environment variable: it is known only from argv.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

/** A signing secret as the sandbox and the dashboard issue them. */
const PASTED = "whsec_0f3a9c1d7e2b4a6c8d0e1f2a3b4c5d6e";

/** Any run of 8 characters of the secret, in any case. */
function showsPart(text: string): boolean {
  const lower = text.toLowerCase();
  for (let i = 0; i + 8 <= PASTED.length; i++) if (lower.includes(PASTED.slice(i, i + 8))) return true;
  return false;
}

const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "campaignctl-secret-env-"));
writeFileSync(join(dir, "headers.json"), JSON.stringify({ "x-event-id": "evt_1" }));
writeFileSync(join(dir, "body.json"), "{}");

describe("--secret-env given a secret instead of a variable's name", () => {
  test.each([
    ["webhooks verify", ["webhooks", "verify", "--headers", "headers.json", "--body", "body.json"]],
    ["webhooks listen", ["webhooks", "listen", "--port", "19899"]],
    ["replies run", ["replies", "run", EXAMPLES, "--sandbox", "--port", "19898"]],
  ])("%s: refused, exit 1, and the secret is nowhere in the output", async (_name, argv) => {
    for (const given of [
      ["--secret-env", PASTED],
      [`--secret-env=${PASTED}`],
      ["--secret-env", PASTED.toUpperCase()],
    ])
      for (const json of [[], ["--json"]]) {
        const result = await runCli([...argv, ...given, ...json], { cwd: dir });
        expect(result.code).toBe(1);
        expect(result.stderr + result.stdout).toContain("webhooks.no-secret");
        expect(result.stderr + result.stdout).toContain("--secret-env takes the NAME");
        expect(showsPart(result.stdout)).toBe(false);
        expect(showsPart(result.stderr)).toBe(false);
      }
  });

  test("a variable's name is still named when it is not set", async () => {
    const result = await runCli(
      ["webhooks", "verify", "--headers", "headers.json", "--body", "body.json", "--secret-env", "WH_NEW"],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("The environment variable WH_NEW is not set");
  });
});
