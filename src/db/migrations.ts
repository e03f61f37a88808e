// Numbered, forward-only migrations (one file each under migrations/, listed in migrations/index.ts). Run
// at start and by `cli migrate`, under an advisory lock so several processes starting together apply each
// migration once. A database records the ids applied (schema_migrations).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { buildDeferredIndexes, type IndexProgress } from './bulk-indexes.ts';
import type { Migration } from './migrations/migration.ts';
import * as listed from './migrations/index.ts';

export type { Migration } from './migrations/migration.ts';

/** Every migration, in the order they run (of id). */
export const migrations: Migration[] = Object.values(listed).sort((a, b) => a.id - b.id);

const MIGRATION_LOCK = 7_410_001;

/** Applies every migration not yet applied. Returns the ids applied now. */
export async function migrate(pool: pg.Pool, onProgress?: IndexProgress): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    );
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        await client.query('COMMIT');
        applied.push(m.id);
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    // The cursor-signing secret is shared by every process through the database.
    await client.query(
      `INSERT INTO settings (key, value) VALUES ('cursor_secret', $1) ON CONFLICT (key) DO NOTHING`,
      [randomBytes(32).toString('hex')],
    );
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  // Search indexes left unbuilt by a bulk load that did not finish.
  await buildDeferredIndexes(pool, onProgress);
  return applied;
}

export async function getSetting(pool: pg.Pool, key: string): Promise<string | undefined> {
  const r = await pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  return r.rows[0]?.value;
}
