import { withDb } from './db.ts';

export async function run(_args: string[]): Promise<number> {
  return withDb(async (db) => {
    const { rows } = await db.write.query('SELECT max(id) AS id FROM schema_migrations');
    process.stdout.write(`${JSON.stringify({ schema_version: rows[0].id })}\n`);
    return 0;
  });
}
