/**
 * The PostgreSQL tests of test/results/ run only where a test database is configured
 * (`CAMPAIGNCTL_TEST_POSTGRES_URL`). On a developer's machine without one they are skipped, and
 * the tests say so on the console; with CI=true a missing database fails here (.ci/run starts
 * PostgreSQL and sets the variable), so CI never passes with those tests skipped.
 */
import { describe, expect, it } from "vitest";
import { TEST_POSTGRES_ENV } from "./harness.js";
import { HAVE_POSTGRES, POSTGRES_URL, query } from "./postgres.js";

describe("with CI=true", () => {
  it.runIf(process.env.CI === "true")(
    "a test PostgreSQL is configured and answers, so its tests really run",
    async () => {
      expect(
        HAVE_POSTGRES,
        `CI=true but ${TEST_POSTGRES_ENV} is not set: .ci/run must start PostgreSQL`,
      ).toBe(true);
      const rows = await query<{ one: number }>(POSTGRES_URL ?? "", "SELECT 1 AS one");
      expect(rows).toEqual([{ one: 1 }]);
    },
  );
});
