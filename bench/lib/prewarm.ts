// A cluster just started reads back the blocks its last shutdown listed (pg_prewarm's autoprewarm worker:
// gigabytes at a million jobs, a core for up to a minute). Anything timed meanwhile is charged that work
// too, so the benchmarks wait for it first and say how long they waited.
import type pg from 'pg';

/** Waits (at most `limitMs`) until no autoprewarm worker runs; returns the seconds waited. */
export async function waitForAutoprewarm(db: pg.Pool | pg.Client, limitMs = 600_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autoprewarm worker'",
    );
    if (!rows[0].n || performance.now() - t0 > limitMs) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return (performance.now() - t0) / 1000;
}
