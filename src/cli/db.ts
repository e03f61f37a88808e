// Opens the configured database for a CLI command, prepared (migrations, known sources).
import { ConfigError, type Config, loadConfig } from '../config.ts';
import { type Db, openDb } from '../db/pool.ts';
import { type PrepareOptions, prepareDatabase } from '../service/setup.ts';

export async function withDb(
  fn: (db: Db, config: Config) => Promise<number>,
  prepare: PrepareOptions = {},
): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const db = await openDb(config);
  try {
    await prepareDatabase(db, prepare);
    return await fn(db, config);
  } finally {
    await db.close();
  }
}

/** `--name value` options and positional arguments. */
export function parseArgs(args: string[]): { opts: Record<string, string>; rest: string[] } {
  const opts: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2);
      if (v !== undefined) opts[k] = v;
      else if (i + 1 < args.length && !args[i + 1].startsWith('--')) opts[k] = args[++i];
      else opts[k] = 'true';
    } else rest.push(a);
  }
  return { opts, rest };
}
