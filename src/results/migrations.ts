/**
 * The PostgreSQL store's schema, as versioned SQL migrations (docs/results.md "PostgreSQL"), applied
 * in order by cli/adapters/results-postgres.ts, each in its own transaction with its row in
 * `campaignctl_migrations`, under a transaction-scoped advisory lock so that two recorders starting
 * at once migrate once. A migration is never edited once released: a change is a new version.
 *
 * The snapshot table holds the same members as a line of the files
 * (schemas/results-snapshot.schema.json), its primary key the snapshot's identity (project, hour).
 */

/** One migration. Invariant: versions are 1, 2, 3, ... in order. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The key of the advisory lock every migration and every batch takes (any constant bigint of ours). */
export const RESULTS_LOCK_KEY = 7_302_801_338;

/** The table of snapshots. */
export const SNAPSHOT_TABLE = "campaignctl_results_snapshots";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "results snapshots",
    sql: `
CREATE TABLE ${SNAPSHOT_TABLE} (
  project_id text NOT NULL,
  hour timestamptz NOT NULL,
  at timestamptz NOT NULL,
  format_version integer NOT NULL,
  project_name text NOT NULL,
  organization_id text NOT NULL,
  organization_name text NOT NULL,
  status text NOT NULL,
  type text NOT NULL,
  channel text NOT NULL,
  protocol text NOT NULL,
  brand_id text NOT NULL,
  campaign_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  completed_at timestamptz,
  total_recipients bigint NOT NULL CHECK (total_recipients >= 0),
  messages_sent bigint NOT NULL CHECK (messages_sent >= 0),
  messages_delivered bigint NOT NULL CHECK (messages_delivered >= 0),
  messages_failed bigint NOT NULL CHECK (messages_failed >= 0),
  messages_opted_out bigint NOT NULL CHECK (messages_opted_out >= 0),
  replies_received bigint NOT NULL CHECK (replies_received >= 0),
  survey_responses_count bigint NOT NULL CHECK (survey_responses_count >= 0),
  survey_completion_count bigint NOT NULL CHECK (survey_completion_count >= 0),
  total_url_clicks bigint NOT NULL CHECK (total_url_clicks >= 0),
  unique_url_clicks bigint NOT NULL CHECK (unique_url_clicks >= 0),
  url_share_count bigint NOT NULL CHECK (url_share_count >= 0),
  actual_cost numeric(20, 4) NOT NULL CHECK (actual_cost >= 0),
  PRIMARY KEY (project_id, hour),
  CHECK (hour = date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
);
CREATE INDEX ${SNAPSHOT_TABLE}_at ON ${SNAPSHOT_TABLE} (at);
CREATE INDEX ${SNAPSHOT_TABLE}_organization ON ${SNAPSHOT_TABLE} (organization_id, at);
`,
  },
];
