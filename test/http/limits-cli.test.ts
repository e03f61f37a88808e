// The operator's account commands: create, list, set-limits, usage (JSON lines on stdout).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/accounts.ts';
import { createKey } from '../../src/db/keys.ts';
import { PgLimiter } from '../../src/limiter/limiter.ts';
import { capture } from '../helpers/capture.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
const saved = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };

beforeAll(async () => {
  db = await createTestDb();
  process.env.DATABASE_URL = db.url;
  delete process.env.REDIS_URL;
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await db?.drop();
});

async function cli(
  ...args: string[]
): Promise<{ code: number; lines: Record<string, unknown>[]; err: string }> {
  const { code, out, err } = await capture(run, args);
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, lines, err };
}

describe('accounts command', () => {
  it('creates accounts with default or given limits, and refuses a duplicate', async () => {
    let r = await cli('create', 'acme', '--rate-limit', '120', '--monthly-quota', '5000');
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      expect.objectContaining({ name: 'acme', rate_limit: 120, monthly_quota: 5000, active_keys: 0 }),
    ]);
    r = await cli('create', 'globex');
    expect(r.lines[0]).toMatchObject({
      name: 'globex',
      rate_limit: db.config.RATE_LIMIT_PER_MINUTE,
      monthly_quota: db.config.MONTHLY_QUOTA,
    });
    r = await cli('create', 'acme');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/already exists/);
  });

  it('rejects bad options and usage', async () => {
    expect((await cli('create', 'x', '--rate-limit', '0')).code).toBe(2);
    expect((await cli('create', 'x', '--rate-limit', 'ten')).code).toBe(2);
    expect((await cli('create', 'x', '--burst', '3')).code).toBe(2);
    expect((await cli('set-limits', 'acme')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('lists accounts and changes limits', async () => {
    let r = await cli('set-limits', 'acme', '--rate-limit', '60');
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatchObject({ name: 'acme', rate_limit: 60, monthly_quota: 5000 });
    r = await cli('set-limits', 'nobody', '--monthly-quota', '3');
    expect(r.code).toBe(1);
    r = await cli('list');
    expect(r.lines.map((l) => [l.name, l.rate_limit, l.monthly_quota])).toEqual([
      ['acme', 60, 5000],
      ['globex', db.config.RATE_LIMIT_PER_MINUTE, db.config.MONTHLY_QUOTA],
    ]);
  });

  it('shows the requests of this month per account and per key', async () => {
    const { rows } = await db.write.query<{ id: number }>(
      "SELECT id::int AS id FROM accounts WHERE name = 'acme'",
    );
    const accountId = rows[0].id;
    const k1 = await createKey(db.write, accountId, db.config.KEY_PREFIX);
    const k2 = await createKey(db.write, accountId, db.config.KEY_PREFIX);
    const limiter = new PgLimiter(db.write);
    const owner = (key_id: number) => ({
      key_id,
      account_id: accountId,
      rate_limit: 60,
      monthly_quota: 5000,
    });
    for (let i = 0; i < 3; i++) await limiter.take(owner(k1.id));
    await limiter.take(owner(k2.id));
    let r = await cli('usage', 'acme');
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      {
        account_id: accountId,
        account: 'acme',
        month: new Date().toISOString().slice(0, 7) + '-01',
        requests: 4,
        monthly_quota: 5000,
        keys: [
          { key_id: k1.id, prefix: expect.any(String), revoked: false, requests: 3 },
          { key_id: k2.id, prefix: expect.any(String), revoked: false, requests: 1 },
        ],
      },
    ]);
    r = await cli('usage');
    expect(r.lines.map((l) => [l.account, l.requests])).toEqual([
      ['acme', 4],
      ['globex', 0],
    ]);
    expect((await cli('usage', 'nobody')).code).toBe(1);
  });
});
