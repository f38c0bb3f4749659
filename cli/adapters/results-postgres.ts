/**
 * The results store in PostgreSQL (docs/results.md "PostgreSQL"): the shared store of a data team.
 * The connection string comes from the environment only (`CAMPAIGNCTL_RESULTS_DATABASE_URL`), never a
 * file or a flag, and is never printed (cli/output/output-redaction.ts masks it and its password).
 *
 * Opening migrates: the versioned SQL of src/results/migrations.ts, in one transaction under an
 * advisory lock, each version's row in `campaignctl_migrations`. A database migrated by a newer
 * campaignctl is refused. Writing is one transaction per batch, under the same lock: it reads the
 * identities and latest snapshots of the batch's projects, applies the write rule
 * (src/results/write-rule.ts), and inserts with `ON CONFLICT (project_id, hour) DO NOTHING`; a
 * recording killed mid-batch leaves no row of that batch (the server rolls back a transaction whose
 * connection dropped). `pg` is loaded only here, when the store is used.
 */
import type { ClientBase } from "pg";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MIGRATIONS, RESULTS_LOCK_KEY, SNAPSHOT_TABLE } from "../../src/results/migrations.js";
import { type ResultsSnapshot, SNAPSHOT_COUNTERS, snapshotKey } from "../../src/results/snapshot.js";
import { checkSnapshot } from "../../src/results/snapshot-check.js";
import type { ReadOutcome, ResultsStore, WriteOutcome } from "../../src/results/store.js";
import { chooseWrites, latestByProject } from "../../src/results/write-rule.js";

/** The variable holding the connection string. */
export const DATABASE_URL_ENV = "CAMPAIGNCTL_RESULTS_DATABASE_URL";

/** The table of applied migrations. */
const MIGRATIONS_TABLE = "campaignctl_migrations";
/** This store's rows in the migrations table (other components of ours may migrate the same database). */
const COMPONENT = "results";

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', ${ISO}) AS ${column}`;
/** The columns of a snapshot as text the line format agrees with. */
const SELECT_COLUMNS = [
  "format_version",
  "project_id",
  `to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00Z"') AS hour`,
  iso("at"),
  "project_name",
  "organization_id",
  "organization_name",
  "status",
  "type",
  "channel",
  "protocol",
  "brand_id",
  "campaign_id",
  iso("created_at"),
  iso("updated_at"),
  iso("completed_at"),
  ...SNAPSHOT_COUNTERS.map((c) => `${c}::text AS ${c}`),
  "actual_cost::text AS actual_cost",
].join(", ");

function unusable(what: string, error: unknown): Diagnostic {
  const said = error instanceof Error ? error.message : String(error);
  return {
    severity: "error",
    code: "results.database-unusable",
    message: `the PostgreSQL results store (${DATABASE_URL_ENV}) could not ${what}: ${said}`,
    hint: `check the database named by ${DATABASE_URL_ENV} (reachable, the role may create tables in it); nothing of this batch was written`,
  };
}

/** A row as the driver gives it (text columns), as a snapshot. */
function snapshotOfRow(row: Record<string, string | number | null>): ResultsSnapshot {
  const value: Record<string, unknown> = { ...row, format_version: Number(row.format_version) };
  for (const c of SNAPSHOT_COUNTERS) value[c] = Number(row[c]);
  const checked = checkSnapshot(value);
  if (!checked.ok) throw new Error(`a row of ${SNAPSHOT_TABLE} is not a snapshot: ${checked.why}`);
  return checked.snapshot;
}

/** Opens (and migrates) the store named by `url`; a problem is a diagnostic, never a throw. */
export async function openPostgresStore(
  url: string,
): Promise<{ ok: true; store: ResultsStore } | { ok: false; diagnostics: Diagnostic[] }> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A dropped connection is reported by the query that meets it; no unhandled 'error' event.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SET TIME ZONE 'UTC'");
  } catch (error) {
    await client.end().catch(() => undefined);
    return { ok: false, diagnostics: [unusable("be reached", error)] };
  }
  const migrated = await migrate(client);
  if (!migrated.ok) {
    await client.end().catch(() => undefined);
    return migrated;
  }
  let closed: Promise<void> | undefined;
  return {
    ok: true,
    store: {
      name: `PostgreSQL (${DATABASE_URL_ENV})`,
      write: (snapshots) => writeBatch(client, snapshots),
      read: (untilMs) => readAll(client, untilMs),
      close: () => {
        closed ??= client.end().catch(() => undefined);
        return closed;
      },
    },
  };
}

async function migrate(client: ClientBase): Promise<{ ok: true } | { ok: false; diagnostics: Diagnostic[] }> {
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [RESULTS_LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (component text NOT NULL, version integer NOT NULL, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (component, version))`,
    );
    const applied = await client.query<{ version: number }>(
      `SELECT version FROM ${MIGRATIONS_TABLE} WHERE component = $1`,
      [COMPONENT],
    );
    const done = new Set(applied.rows.map((r) => r.version));
    const known = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
    const newest = Math.max(0, ...done);
    if (newest > known) {
      await client.query("ROLLBACK");
      return {
        ok: false,
        diagnostics: [
          {
            severity: "error",
            code: "results.database-newer",
            message: `the PostgreSQL results store (${DATABASE_URL_ENV}) is at migration ${newest}, newer than this campaignctl knows (${known}): nothing is written`,
            hint: "upgrade campaignctl to the version that migrated the database",
          },
        ],
      };
    }
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (component, version, name) VALUES ($1, $2, $3)`, [
        COMPONENT,
        m.version,
        m.name,
      ]);
    }
    await client.query("COMMIT");
    return { ok: true };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    return { ok: false, diagnostics: [unusable("be migrated", error)] };
  }
}

/** One batch, one transaction: the write rule against what the table holds, then the inserts. */
async function writeBatch(client: ClientBase, snapshots: readonly ResultsSnapshot[]): Promise<WriteOutcome> {
  const ids = [...new Set(snapshots.map((s) => s.project_id))];
  const hours = [...new Set(snapshots.map((s) => s.hour))];
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [RESULTS_LOCK_KEY]);
    const taken = await client.query<{ project_id: string; hour: string }>(
      `SELECT project_id, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00Z"') AS hour FROM ${SNAPSHOT_TABLE} WHERE project_id = ANY($1) AND hour = ANY($2::timestamptz[])`,
      [ids, hours],
    );
    const latest = await client.query(
      `SELECT DISTINCT ON (project_id) ${SELECT_COLUMNS} FROM ${SNAPSHOT_TABLE} WHERE project_id = ANY($1) ORDER BY project_id, at DESC`,
      [ids],
    );
    const chosen = chooseWrites(snapshots, {
      keys: new Set(taken.rows.map(snapshotKey)),
      latest: latestByProject(latest.rows.map(snapshotOfRow)),
    });
    let inserted = 0;
    if (chosen.write.length > 0) {
      const result = await client.query(
        `INSERT INTO ${SNAPSHOT_TABLE} SELECT * FROM json_populate_recordset(NULL::${SNAPSHOT_TABLE}, $1::json) ON CONFLICT (project_id, hour) DO NOTHING`,
        [JSON.stringify(chosen.write)],
      );
      inserted = result.rowCount ?? 0;
    }
    await client.query("COMMIT");
    return {
      ok: true,
      written: inserted,
      sameHour: chosen.sameHour + (chosen.write.length - inserted),
      unchanged: chosen.unchanged,
      places: inserted > 0 ? [SNAPSHOT_TABLE] : [],
      diagnostics: [],
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    return { ok: false, diagnostics: [unusable("be written", error)] };
  }
}

async function readAll(client: ClientBase, untilMs: number): Promise<ReadOutcome> {
  try {
    const result = await client.query(
      `SELECT ${SELECT_COLUMNS} FROM ${SNAPSHOT_TABLE} WHERE at < $1 ORDER BY project_id, at`,
      [new Date(untilMs).toISOString()],
    );
    return { ok: true, snapshots: result.rows.map(snapshotOfRow), diagnostics: [] };
  } catch (error) {
    return { ok: false, diagnostics: [unusable("be read", error)] };
  }
}
