/**
 * The PostgreSQL schema, as numbered migrations applied at start.
 *
 * `schema_migrations` records each applied version; the migrations run in one transaction
 * under an advisory lock, so instances starting together apply each migration once.
 *
 * `kv_entries` holds every entry: `key` is the order-preserving encoding (../key_codec.ts) and
 * the primary key, so prefix and range lists are index range scans; `kind` and `value` are the
 * encoded value (../value_codec.ts); `version` comes from the `kv_versions` sequence and is the
 * entry's versionstamp; `expires_at` is set by `expireIn`. `kv_commit` (./commit_function.ts)
 * applies an atomic commit in one statement: migration 2 replaced the first one, which took
 * values as hex text (parsing that text cost more than the writes). Migration 3 makes `kv_commit`
 * and the new `kv_read` (several keys at one snapshot) plan with index scans only.
 */
import {
  COMMIT_BY_INDEX,
  CREATE_COMMIT_FUNCTION,
  CREATE_READ_FUNCTION,
  DROP_HEX_COMMIT_FUNCTION,
} from "./commit_function.ts";
import type { Sql } from "./connection.ts";

/** One schema change. */
interface Migration {
  version: number;
  statements: string[];
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE kv_entries (
        key bytea PRIMARY KEY,
        kind smallint NOT NULL,
        value bytea NOT NULL,
        version bigint NOT NULL,
        expires_at timestamptz
      )`,
      `CREATE INDEX kv_entries_expiry ON kv_entries (expires_at) WHERE expires_at IS NOT NULL`,
      `CREATE SEQUENCE kv_versions`,
    ],
  },
  { version: 2, statements: [DROP_HEX_COMMIT_FUNCTION, CREATE_COMMIT_FUNCTION] },
  { version: 3, statements: [COMMIT_BY_INDEX, CREATE_READ_FUNCTION] },
];

/** Advisory lock id held while migrating ("switchyard" in ASCII, truncated). */
const MIGRATION_LOCK = 0x7377_6974_6368n;

/** Applies the migrations the database has not seen yet. */
export async function migrate(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`;
    const applied = new Set(
      (await tx`SELECT version FROM schema_migrations`).map((row) => Number(row.version)),
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.unsafe(statement);
      await tx`INSERT INTO schema_migrations (version) VALUES (${migration.version})`;
    }
  });
}
