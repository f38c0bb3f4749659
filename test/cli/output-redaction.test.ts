/**
 * The output redactor masks every key the environment holds under the API key's prefix: the
 * default key, keys per organization, and a variable that only looks like one (a lower-case suffix
 * is never used as a key, and its value is still masked).
 */
import { expect, test } from "vitest";
import { redactorFor } from "../../cli/output/output-redaction.js";

test("every CAMPAIGNCTL_API_KEY* value is masked, whatever the case of the variable's suffix", () => {
  const env = {
    CAMPAIGNCTL_API_KEY: "pc_live_default_Q1w2E3r4T5",
    CAMPAIGNCTL_API_KEY_ADAMS: "pc_live_adams_Z9x8C7v6B5",
    CAMPAIGNCTL_API_KEY_baker: "pc_live_baker_M1n2B3v4C5",
    campaignctl_api_key_clark: "pc_live_clark_L0k9J8h7G6",
    UNRELATED: "an ordinary value",
  };
  const redact = redactorFor([], env);
  const text = Object.values(env).join(" | ");
  const out = redact(text);
  for (const name of [
    "CAMPAIGNCTL_API_KEY",
    "CAMPAIGNCTL_API_KEY_ADAMS",
    "CAMPAIGNCTL_API_KEY_baker",
    "campaignctl_api_key_clark",
  ] as const)
    expect(out).not.toContain(env[name].slice(-10));
  expect(out).toContain(env.UNRELATED);
});

test("a secret pasted as the value of --secret-env or --api-key-env is masked; a variable's name is not", () => {
  const signing = "whsec_0f3a9c1d7e2b4a6c8d0e1f2a3b4c5d6e";
  const key = "pc_live_pasted_A1s2D3f4G5h6";
  const redact = redactorFor(
    ["webhooks", "listen", "--secret-env", signing, "--secret-env", "WH_OLD_SECRET", `--api-key-env=${key}`],
    {},
  );
  const out = redact(`${signing.toUpperCase()} ${key} WH_OLD_SECRET`);
  expect(out).not.toContain(signing.slice(-10).toUpperCase());
  expect(out).not.toContain(key.slice(-10));
  expect(out).toContain("WH_OLD_SECRET");
});

test("a key the run was not given is masked as `*` by every command but `campaignctl sandbox`", () => {
  const text = "live text quoting PC_LIVE_someoneElse7Yt5Re";
  const masked = `live text quoting ${"*".repeat("PC_LIVE_someoneElse7Yt5Re".length)}`;
  expect(redactorFor(["plan", "campaigns/"], {})(text)).toBe(masked);
  // The run's own key shares the prefix `pc_live_` with every key: masking it first left the tail.
  expect(redactorFor(["plan"], { CAMPAIGNCTL_API_KEY: "pc_live_own_Z1x2C3v4B5n6" })(text)).toBe(masked);
  expect(redactorFor(["--no-color", "replies", "plan"], {})(text)).toBe(masked);
  // The sandbox prints its fixture's keys on purpose; the run's own secrets stay masked.
  const sandbox = redactorFor(["sandbox", "--port", "0"], { CAMPAIGNCTL_API_KEY: "own_Z1x2C3v4B5n6" });
  expect(sandbox(text)).toBe(text);
  expect(sandbox("own_Z1x2C3v4B5n6")).toBe("[redacted]");
});
