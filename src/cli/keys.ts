// keys create --account NAME | keys list [--account NAME] | keys revoke ID
import { createKey, ensureAccount, KeyLimitError, listKeys, revokeKey } from '../db/keys.ts';
import { parseArgs, withDb } from './db.ts';
import { specOptions } from './spec.ts';

const USAGE = 'usage: keys create --account NAME | keys list [--account NAME] | keys revoke ID\n';

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { opts, rest: pos } = parseArgs(rest, specOptions('keys', sub));
  if (sub === 'create') {
    if (!opts.account || opts.account === 'true') {
      process.stderr.write(USAGE);
      return 2;
    }
    return withDb(async (db, config) => {
      const account = await ensureAccount(
        db.write,
        opts.account,
        config.RATE_LIMIT_PER_MINUTE,
        config.MONTHLY_QUOTA,
      );
      try {
        const { id, key } = await createKey(db.write, account.id, config.KEY_PREFIX);
        process.stderr.write(`created key ${id} for account ${account.name}; it is shown once, keep it\n`);
        process.stdout.write(`${key}\n`);
        return 0;
      } catch (err) {
        if (err instanceof KeyLimitError) {
          process.stderr.write(`refused: ${err.message}\n`);
          return 1;
        }
        throw err;
      }
    });
  }
  if (sub === 'list') {
    return withDb(async (db) => {
      for (const k of await listKeys(db.write, opts.account)) process.stdout.write(`${JSON.stringify(k)}\n`);
      return 0;
    });
  }
  if (sub === 'revoke') {
    const id = Number(pos[0]);
    if (!Number.isSafeInteger(id) || id <= 0) {
      process.stderr.write(USAGE);
      return 2;
    }
    return withDb(async (db) => {
      if (await revokeKey(db.write, id)) {
        process.stderr.write(`revoked key ${id}\n`);
        return 0;
      }
      process.stderr.write(`no active key ${id}\n`);
      return 1;
    });
  }
  process.stderr.write(USAGE);
  return 2;
}
