// The PostgreSQL limiter's window rows are vacuumed every few seconds by the service's schedules: every
// take leaves dead index entries behind, and the next takes walk over them until a vacuum.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSchedules } from '../../src/service/schedules.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
});
afterAll(async () => {
  vi.useRealTimers();
  await db?.drop();
});

const vacuums = async () =>
  Number(
    (
      await db.write.query<{ n: string }>(
        "SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'rate_hits'",
      )
    ).rows[0].n,
  );

/** Runs the schedules for `seconds` of a fake interval clock, then lets their work finish. */
async function scheduled(redisUrl: string | undefined, seconds: number): Promise<void> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const schedules = startSchedules(db, { ...db.config, REDIS_URL: redisUrl }, () => {});
  try {
    vi.advanceTimersByTime(seconds * 1000);
  } finally {
    schedules.stop();
    vi.useRealTimers();
  }
}

describe('limiter vacuum', () => {
  it('vacuums rate_hits every 5 s with the PostgreSQL limiter, not with Redis', async () => {
    const before = await vacuums();
    await scheduled('redis://127.0.0.1:1', 10);
    await new Promise((r) => setTimeout(r, 300));
    expect(await vacuums()).toBe(before);

    await scheduled(undefined, 5);
    await vi.waitFor(async () => expect(await vacuums()).toBe(before + 1), { timeout: 5000 });
  });
});
