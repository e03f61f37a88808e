import { withDb } from './db.ts';
import { type ProgressLine, startProgress, takeQuiet } from './progress.ts';

export async function run(argv: string[]): Promise<number> {
  const { quiet } = takeQuiet(argv);
  // Shown only when migrate builds search indexes that a bulk load left unbuilt.
  let progress: ProgressLine | undefined;
  const onIndexProgress = (built: number, total: number) => {
    progress ??= startProgress('search indexes', 'indexes', { quiet });
    progress.update(built, total);
  };
  return withDb(
    async (db) => {
      progress?.stop();
      const { rows } = await db.write.query('SELECT max(id) AS id FROM schema_migrations');
      process.stdout.write(`${JSON.stringify({ schema_version: rows[0].id })}\n`);
      return 0;
    },
    { onIndexProgress },
  );
}
