/**
 * The results store's connection string is a secret: its password is masked in everything the CLI
 * prints (the one redactor, cli/output/output-redaction.ts), whatever a driver or server echoes back, and
 * the rest of the string (a host or database named like the tool) is left alone.
 */
import { describe, expect, it } from "vitest";
import { redactorFor } from "../../cli/output/output-redaction.js";

describe("CAMPAIGNCTL_RESULTS_DATABASE_URL", () => {
  it("masks its password, in the userinfo and in the query", () => {
    const redact = redactorFor([], {
      CAMPAIGNCTL_RESULTS_DATABASE_URL:
        "postgres://analyst:S3cret%2Fpass@db.example.org:5432/campaignctl?password=Other0ne9",
    });
    expect(redact('password authentication failed: "S3cret/pass"')).not.toContain("S3cret/pass");
    expect(redact("S3CRET/PASS and Other0ne9")).not.toMatch(/S3CRET|Other0ne9/);
    expect(redact("campaignctl results record --store postgres")).toBe(
      "campaignctl results record --store postgres",
    );
  });

  it("masks a password with a `%` that is no escape, which the driver takes as written", () => {
    // pg-connection-string keeps `ab%zz...` as it is when it cannot decode it, and connects with it.
    const redact = redactorFor([], {
      CAMPAIGNCTL_RESULTS_DATABASE_URL: "postgres://analyst:ab%zzSecretPw99@db.example.org/results",
    });
    expect(redact("password ab%zzSecretPw99")).not.toContain("SecretPw99");
  });

  it("a string without a password masks nothing", () => {
    const redact = redactorFor([], { CAMPAIGNCTL_RESULTS_DATABASE_URL: "postgres:///campaignctl" });
    expect(redact("campaignctl postgres")).toBe("campaignctl postgres");
  });
});
