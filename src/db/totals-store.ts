// Exact totals shared by every process and host (table shared_totals, migration 7), on the primary:
// the request path writes here while its counts run on the read pool, which may be a replica.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Counted, TotalsStore } from '../model/totals.ts';

const digest = (key: string) => createHash('sha256').update(key).digest();

export class PgTotalsStore implements TotalsStore {
  /**
   * `waitMs` bounds how long a process waits for another's count: a count never runs longer than the
   * statement timeout, so a claim older than that belongs to a process that failed without saying so.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly waitMs: number,
  ) {}

  async find(key: string, version: number): Promise<{ exact?: number; earlier?: Counted }> {
    const { rows } = await this.pool.query<{ version: number; n: number }>(
      `SELECT version, n FROM shared_totals WHERE key = $1 AND version <= $2 AND n IS NOT NULL
        ORDER BY version DESC LIMIT 1`,
      [digest(key), version],
    );
    const r = rows[0];
    if (!r) return {};
    return Number(r.version) === version
      ? { exact: Number(r.n) }
      : { earlier: { n: Number(r.n), version: Number(r.version) } };
  }

  async claim(key: string, version: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'INSERT INTO shared_totals (key, version) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [digest(key), version],
    );
    return rowCount === 1;
  }

  async await(key: string, version: number): Promise<number | undefined> {
    const deadline = Date.now() + this.waitMs;
    for (let pause = 10; Date.now() < deadline; pause = Math.min(pause * 2, 50)) {
      const { rows } = await this.pool.query<{ n: number | null; stale: boolean }>(
        `SELECT n, at < now() - $3 * interval '1 millisecond' AS stale
           FROM shared_totals WHERE key = $1 AND version = $2`,
        [digest(key), version, this.waitMs],
      );
      const r = rows[0];
      if (!r || r.stale) return undefined;
      if (r.n !== null) return Number(r.n);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    return undefined;
  }

  async put(key: string, claimed: number, counted: Counted): Promise<void> {
    // Totals of earlier versions are dropped: the newest is the starting point of any later replay.
    await this.pool.query(
      `WITH older AS (DELETE FROM shared_totals WHERE key = $1 AND (version < $3 OR (version = $2 AND n IS NULL AND $2 <> $3)))
       INSERT INTO shared_totals (key, version, n) VALUES ($1, $3, $4)
       ON CONFLICT (key, version) DO UPDATE SET n = EXCLUDED.n, at = now() WHERE shared_totals.n IS NULL`,
      [digest(key), claimed, counted.version, counted.n],
    );
  }

  async release(key: string, version: number): Promise<void> {
    await this.pool.query('DELETE FROM shared_totals WHERE key = $1 AND version = $2 AND n IS NULL', [
      digest(key),
      version,
    ]);
  }
}

/**
 * Drops totals no request will ask for again: those of earlier data versions once they are older than
 * the replay log (data_changes keeps an hour), and any not refreshed for a day.
 */
export async function purgeSharedTotals(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM shared_totals
      WHERE at < now() - interval '1 day'
         OR (at < now() - interval '1 hour' AND version < (SELECT version FROM data_version WHERE id = 1))`,
  );
  return rowCount ?? 0;
}
