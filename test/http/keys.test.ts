import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  ensureAccount,
  hashKey,
  KeyLimitError,
  listKeys,
  MAX_ACTIVE_KEYS,
  revokeKey,
} from '../../src/db/keys.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sample: false });
});
afterAll(async () => {
  await t.close();
});

describe('API keys', () => {
  it('have the prefix and 48 hex characters, and only the SHA-256 is stored', async () => {
    expect(t.key).toMatch(new RegExp(`^${t.db.config.KEY_PREFIX}[0-9a-f]{48}$`));
    const { rows } = await t.db.write.query('SELECT key_hash, prefix FROM api_keys');
    expect(rows).toHaveLength(1);
    expect(Buffer.compare(rows[0].key_hash, hashKey(t.key))).toBe(0);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(t.key.slice(t.db.config.KEY_PREFIX.length));
  });

  it('revocation takes effect on the next request', async () => {
    const account = await ensureAccount(t.db.write, 'revoker', 100, 1000);
    const { id, key } = await createKey(t.db.write, account.id, t.db.config.KEY_PREFIX);
    const auth = { authorization: `Bearer ${key}` };
    expect((await t.app.fastify.inject({ url: '/v1/meta', headers: auth })).statusCode).toBe(200);
    expect(await revokeKey(t.db.write, id)).toBe(true);
    expect((await t.app.fastify.inject({ url: '/v1/meta', headers: auth })).statusCode).toBe(401);
    expect(await revokeKey(t.db.write, id)).toBe(false);
  });

  it('refuses an 11th active key; revoked keys do not count', async () => {
    const account = await ensureAccount(t.db.write, 'ten', 100, 1000);
    const ids: number[] = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) ids.push((await createKey(t.db.write, account.id, 'jps_')).id);
    await expect(createKey(t.db.write, account.id, 'jps_')).rejects.toBeInstanceOf(KeyLimitError);
    await revokeKey(t.db.write, ids[0]);
    await expect(createKey(t.db.write, account.id, 'jps_')).resolves.toHaveProperty('key');
    await expect(createKey(t.db.write, account.id, 'jps_')).rejects.toBeInstanceOf(KeyLimitError);
    const listed = await listKeys(t.db.write, 'ten');
    expect(listed).toHaveLength(MAX_ACTIVE_KEYS + 1);
    expect(listed.filter((k) => k.revoked_at === null)).toHaveLength(MAX_ACTIVE_KEYS);
  });

  it('concurrent creations cannot exceed the limit', async () => {
    const account = await ensureAccount(t.db.write, 'racer', 100, 1000);
    const results = await Promise.allSettled(
      Array.from({ length: 15 }, () => createKey(t.db.write, account.id, 'jps_')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_ACTIVE_KEYS);
  });

  it('records last_used_at in batches', async () => {
    await t.get('/v1/meta');
    const before = await t.db.write.query(
      'SELECT last_used_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.name = $1',
      ['demo'],
    );
    expect(before.rows[0].last_used_at).toBeNull();
    await t.app.authenticator.flush();
    const after = await t.db.write.query(
      'SELECT last_used_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.name = $1',
      ['demo'],
    );
    expect(after.rows[0].last_used_at).toBeInstanceOf(Date);
  });
});
