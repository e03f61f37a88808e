// Opens the configured database for a CLI command, prepared (migrations, known sources).
import { type Config, loadConfig } from '../config.ts';
import { type Db, openDb } from '../db/pool.ts';
import { prepareDatabase } from '../service/setup.ts';

export async function withDb(fn: (db: Db, config: Config) => Promise<number>): Promise<number> {
  // A bad setting or an unreachable database is thrown: the command line turns it into one line and an exit code.
  const config: Config = loadConfig();
  const db = await openDb(config, { log: (m) => process.stderr.write(`${m}\n`) });
  try {
    await prepareDatabase(db);
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
