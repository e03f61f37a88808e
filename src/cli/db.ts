// Opens the configured database for a CLI command, prepared (migrations, known sources).
import { parseArgs as nodeParseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.ts';
import { type Db, openDb } from '../db/pool.ts';
import { type PrepareOptions, prepareDatabase } from '../service/setup.ts';
import { CliError } from './failure.ts';
import { EXIT, type OptionSpec, takesValue } from './spec.ts';

export async function withDb(
  fn: (db: Db, config: Config) => Promise<number>,
  prepare: PrepareOptions = {},
): Promise<number> {
  // A bad setting or an unreachable database is thrown: the command line turns it into one line and an exit code.
  const config: Config = loadConfig();
  const db = await openDb(config, { log: (m) => process.stderr.write(`${m}\n`) });
  try {
    await prepareDatabase(db, prepare);
    return await fn(db, config);
  } finally {
    await db.close();
  }
}

/**
 * Options and positional arguments of a command line, by the options its spec lists: a flag that takes
 * a value takes the next argument (or `--flag=value`); the others are `'true'` when present.
 */
export function parseArgs(
  args: string[],
  options: OptionSpec[],
): { opts: Record<string, string>; rest: string[] } {
  const config = Object.fromEntries(
    options.map((o) => [
      o.flag.split(' ')[0].slice(2),
      { type: takesValue(o) ? 'string' : 'boolean' } as const,
    ]),
  );
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args, options: config, strict: true, allowPositionals: true });
  } catch (err) {
    throw new CliError((err as Error).message.replace(/\. To specify .*$/s, ''), EXIT.usage);
  }
  const opts: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed.values)) {
    if (v === '') throw new CliError(`--${k} needs a value`, EXIT.usage);
    opts[k] = String(v);
  }
  return { opts, rest: parsed.positionals };
}
