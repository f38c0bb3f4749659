/**
 * The real PostgreSQL of the tests that use it: `CAMPAIGNCTL_TEST_POSTGRES_URL` (.ci/run starts
 * Debian's PostgreSQL and sets it; its role may create databases). Each test file gets a database of
 * its own, dropped after. Without the variable these tests are skipped, saying so on the console;
 * with CI=true they fail instead (test/results/postgres-present.test.ts), so CI never passes with
 * them skipped.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { TEST_POSTGRES_ENV } from "./harness.js";

export const POSTGRES_URL = process.env[TEST_POSTGRES_ENV];
export const HAVE_POSTGRES = POSTGRES_URL !== undefined && POSTGRES_URL !== "";

/** Says once, on the console, that the PostgreSQL tests of `file` are skipped. */
export function warnSkipped(file: string): void {
  if (!HAVE_POSTGRES && process.env.CI !== "true")
    console.warn(`${file}: PostgreSQL tests skipped: ${TEST_POSTGRES_ENV} is not set (.ci/run sets it)`);
}

/** A fresh database on the test server: its URL, and `drop` to remove it. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (POSTGRES_URL === undefined) throw new Error(`${TEST_POSTGRES_ENV} is not set`);
  const name = `campaignctl_results_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: POSTGRES_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** Runs `sql` on the database at `url` and returns its rows. */
export async function query<T extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
