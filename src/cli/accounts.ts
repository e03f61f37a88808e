// accounts create NAME [--rate-limit N] [--monthly-quota N] | accounts list
// | accounts set-limits NAME [--rate-limit N] [--monthly-quota N] | accounts usage [NAME]
// JSON lines on stdout, messages on stderr. Usage is read from the limiter's store (Redis when
// REDIS_URL is set, else PostgreSQL).
import { RedisLimiter } from '../limiter/limiter.ts';
import { createAccount, listAccounts, monthlyUsage, monthOf, setLimits, usageSkeleton } from '../db/usage.ts';
import { parseArgs, withDb } from './db.ts';
import { specOptions } from './spec.ts';

const USAGE =
  'usage: accounts create NAME [--rate-limit N] [--monthly-quota N] | accounts list\n' +
  '     | accounts set-limits NAME [--rate-limit N] [--monthly-quota N] | accounts usage [NAME]\n';

const out = (row: unknown) => process.stdout.write(`${JSON.stringify(row)}\n`);
const say = (msg: string) => process.stderr.write(`${msg}\n`);

/** A positive whole number option, null when absent, or an error message. */
function intOption(opts: Record<string, string>, name: string, max: number): number | null | string {
  const raw = opts[name];
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    return `--${name} must be a whole number from 1 to ${max}`;
  return Number(raw);
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { opts, rest: pos } = parseArgs(rest, specOptions('accounts', sub));
  const unknown = Object.keys(opts).filter((k) => k !== 'rate-limit' && k !== 'monthly-quota');
  const rateLimit = intOption(opts, 'rate-limit', 10_000_000);
  const quota = intOption(opts, 'monthly-quota', 2_000_000_000);
  const bad = [typeof rateLimit === 'string' ? rateLimit : '', typeof quota === 'string' ? quota : ''].filter(
    Boolean,
  );
  if (unknown.length) bad.push(`unknown option --${unknown[0]}`);
  if (bad.length) {
    say(`accounts: ${bad.join('; ')}`);
    return 2;
  }
  const rl = rateLimit as number | null;
  const mq = quota as number | null;

  if (sub === 'create' && pos.length === 1) {
    return withDb(async (db, config) => {
      const acc = await createAccount(
        db.write,
        pos[0],
        rl ?? config.RATE_LIMIT_PER_MINUTE,
        mq ?? config.MONTHLY_QUOTA,
      );
      if (!acc) {
        say(`account ${pos[0]} already exists`);
        return 1;
      }
      out(acc);
      say(`created account ${acc.name}; add a key with: keys create --account ${acc.name}`);
      return 0;
    });
  }
  if (sub === 'list' && pos.length === 0 && rl === null && mq === null) {
    return withDb(async (db) => {
      for (const a of await listAccounts(db.write)) out(a);
      return 0;
    });
  }
  if (sub === 'set-limits' && pos.length === 1) {
    if (rl === null && mq === null) {
      say('accounts set-limits: give --rate-limit and/or --monthly-quota');
      return 2;
    }
    return withDb(async (db) => {
      const acc = await setLimits(db.write, pos[0], rl, mq);
      if (!acc) {
        say(`no account ${pos[0]}`);
        return 1;
      }
      out(acc);
      say(`limits of ${acc.name} changed; they apply from its next request`);
      return 0;
    });
  }
  if (sub === 'usage' && pos.length <= 1 && rl === null && mq === null) {
    return withDb(async (db, config) => {
      const now = Date.now();
      const month = monthOf(now);
      const rows = await (config.REDIS_URL
        ? usageSkeleton(db.write, month, pos[0])
        : monthlyUsage(db.write, month, pos[0]));
      if (pos[0] && !rows.length) {
        say(`no account ${pos[0]}`);
        return 1;
      }
      if (config.REDIS_URL) {
        const limiter = await RedisLimiter.connect(config.REDIS_URL, { log: (_l, m) => say(m) });
        try {
          for (const a of rows) {
            const u = await limiter.usage(
              a.account_id,
              a.keys.map((k) => k.key_id),
              now,
            );
            a.requests = u.account;
            a.keys.forEach((k, i) => {
              k.requests = u.keys[i];
            });
          }
        } catch (err) {
          say(`cannot read usage from redis: ${(err as Error).message}`);
          return 1;
        } finally {
          await limiter.close();
        }
      }
      for (const a of rows) out(a);
      return 0;
    });
  }
  process.stderr.write(USAGE);
  return 2;
}
