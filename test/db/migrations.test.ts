// Migrations are files (src/db/migrations/): each released one must stay the SQL it was released with, and a
// database that has them all migrates on without change. test/fixtures/migrations-released.json holds the
// id, name and SHA-256 of the SQL of every released migration, taken from the migrations as they were
// released (migrations 1-23 from the single array they were written in); a migration is added to it once
// released, never changed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Migration, migrate, migrations } from '../../src/db/migrations.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

const dir = path.resolve(import.meta.dirname, '../../src/db/migrations');
const released: { id: number; name: string; sha256: string }[] = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../fixtures/migrations-released.json'), 'utf8'),
);
const sha256 = (sql: string) => createHash('sha256').update(sql).digest('hex');

describe('the migration files', () => {
  it('give every released migration its id, name and SQL as released', () => {
    expect(released.length).toBeGreaterThanOrEqual(23);
    const now = migrations
      .slice(0, released.length)
      .map((m) => ({ id: m.id, name: m.name, sha256: sha256(m.sql) }));
    expect(now).toEqual(released);
  });

  it('are all listed in the index, each under its own id, and the ids run 1, 2, 3, ...', async () => {
    const files = readdirSync(dir).filter((f) => f !== 'index.ts' && f !== 'migration.ts');
    expect(files.length).toBe(migrations.length);
    for (const f of files) {
      expect(f).toMatch(/^\d{3}-[a-z0-9-]+\.ts$/);
      const { migration } = (await import(path.join(dir, f))) as { migration: Migration };
      expect(migration.id, f).toBe(Number(f.slice(0, 3)));
      expect(migrations, f).toContain(migration);
    }
    expect(migrations.map((m) => m.id)).toEqual(migrations.map((_, i) => i + 1));
  });
});

/** What the migrations made: tables, columns, storage and options, indexes, functions and triggers. */
async function schema(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ item: string }>(`
    SELECT format('%s.%s %s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                  a.attstorage, pg_get_expr(d.adbin, d.adrelid)) AS item
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT format('%s %s %s', c.relname, c.relpersistence, c.reloptions) FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public' WHERE c.relkind IN ('r', 'i')
    UNION ALL
    SELECT format('%s %s', c.relname, t.reloptions) FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    UNION ALL
    SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT pg_get_functiondef(p.oid) FROM pg_proc p
      JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = 'public' WHERE p.prokind = 'f'
      AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.objid = p.oid AND e.deptype = 'e')
    UNION ALL
    SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT format('extension %s', extname) FROM pg_extension
    UNION ALL
    SELECT format('deferred %s %s', name, def) FROM deferred_indexes`);
  return rows.map((r) => r.item).sort();
}

describe('a database migrated to the last released migration', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('records every migration by id and name, as before', async () => {
    const { rows } = await db.write.query('SELECT id, name FROM schema_migrations ORDER BY id');
    expect(rows).toEqual(migrations.map((m) => ({ id: m.id, name: m.name })));
    expect(rows.slice(0, released.length)).toEqual(released.map((m) => ({ id: m.id, name: m.name })));
  });

  it('migrates on with nothing applied and nothing changed', async () => {
    const before = await schema(db.write);
    const recorded = (await db.write.query('SELECT * FROM schema_migrations ORDER BY id')).rows;
    expect(before.some((s) => s.startsWith('CREATE TRIGGER jobs_salary_totals_insert'))).toBe(true);
    expect(await migrate(db.write)).toEqual([]);
    expect(await schema(db.write)).toEqual(before);
    expect((await db.write.query('SELECT * FROM schema_migrations ORDER BY id')).rows).toEqual(recorded);
  });
});
