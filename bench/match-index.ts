// The match index alone: its build from a loaded database (time, memory) and the time of each varied-mix
// kind it answers (searches, counts and the analytics: facets, salary, trends), evaluated in this process
// (no HTTP, no IPC), N requests each.
//   DATABASE_URL=<the bench database> node --expose-gc --import tsx bench/match-index.ts [N=50]
// KINDS=a,b: only those kinds, each also timed by shape (its filters' names, collapsed or not); WARM=1:
// each path asked once before it is timed (what the index keeps made).
import pg from 'pg';
import { MatchService } from '../src/search/match.ts';
import { parseAdvancedQuery, parseWebQuery } from '../src/search/textquery.ts';
import { buildVariedKinds, sampleData } from './lib/mix.ts';

const n = Number(process.argv[2] ?? 50);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = () => {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 2 ** 20, buffers: m.arrayBuffers / 2 ** 20, rss: m.rss / 2 ** 20 };
};
const before = mb();
const service = new MatchService(pool);
const t0 = performance.now();
await service.refresh();
const buildMs = performance.now() - t0;
const after = mb();
const f = (x: number) => x.toFixed(0);
process.stdout.write(
  `build: ${service.status.rows} live jobs in ${f(buildMs)} ms; heap +${f(after.heap - before.heap)} MB, ` +
    `array buffers +${f(after.buffers - before.buffers)} MB, rss ${f(after.rss)} MB\n`,
);

const DAY_US = 86_400_000_000;

/** A varied-mix path as the HTTP layer would ask the index (text compiled, lists split). */
function filtersOf(path: string): {
  filters: Record<string, unknown>;
  collapse: boolean;
  offset: number;
  limit: number;
  facets?: { names: string[]; limit: number };
  salary?: object;
  trend?: { since: number; step: number; until: number };
} {
  const u = new URL(path, 'http://x');
  const filters: Record<string, unknown> = {};
  let collapse = false;
  let offset = 0;
  let limit = 10;
  const extra: { facets?: { names: string[]; limit: number }; salary?: object } = {};
  if (u.pathname === '/v1/jobs/facets')
    extra.facets = {
      names: u.searchParams.get('facets')!.split(','),
      limit: Number(u.searchParams.get('facet_limit') ?? 10),
    };
  if (u.pathname === '/v1/jobs/salary') extra.salary = {};
  if (u.pathname === '/v1/jobs/trends') {
    const since = Date.parse(u.searchParams.get('since')!) * 1000;
    const until = Date.parse(u.searchParams.get('until')!) * 1000;
    const step = u.searchParams.get('interval') === 'week' ? 7 * DAY_US : DAY_US;
    Object.assign(extra, { trend: { since, step, until } });
  }
  for (const [k, v] of u.searchParams) {
    if (['facets', 'facet_limit', 'since', 'until', 'interval'].includes(k)) continue;
    if (k === 'collapse') collapse = true;
    else if (k === 'offset') offset = Number(v);
    else if (k === 'limit') limit = Number(v);
    else if (k === 'title') filters.title = parseWebQuery(v);
    else if (k === 'title_advanced') filters.title_advanced = parseAdvancedQuery(v);
    else if (k === 'description') filters.description = parseWebQuery(v);
    else if (k === 'description_advanced') filters.description_advanced = parseAdvancedQuery(v);
    else if (k === 'remote') filters.remote = v === 'true';
    else if (k === 'salary_gte' || k === 'salary_lte') filters[k] = Number(v);
    else filters[k === 'skill' || k === 'country' || k === 'taxonomies' ? k : k] = v.split(',');
  }
  return { filters, collapse, offset, limit, ...extra };
}

const only = process.env.KINDS?.split(',');
const kinds = buildVariedKinds(await sampleData(pool)).filter((k) => !only || only.includes(k.name));
for (const k of kinds) {
  const ms: number[] = [];
  const shapes = new Map<string, number[]>();
  let declined = 0;
  for (const p of k.paths.slice(0, n)) {
    if (!/^\/v1\/jobs(\/count|\/facets|\/salary|\/trends)?\?/.test(p)) continue;
    const q = filtersOf(p);
    const ask = () =>
      service.ask({
        version: service.status.version!,
        ...q,
        limit: p.includes('/count') ? 0 : q.limit + 1,
      } as never);
    if (process.env.WARM) await ask();
    const t = performance.now();
    const a = await ask();
    ms.push(performance.now() - t);
    if (!a) declined++;
    const shape = `${Object.keys(q.filters).sort().join('+') || '(none)'}${q.collapse ? ' collapsed' : ''}`;
    shapes.set(shape, [...(shapes.get(shape) ?? []), ms[ms.length - 1]]);
  }
  if (!ms.length) continue;
  ms.sort((a, b) => a - b);
  process.stdout.write(
    `${k.name.padEnd(16)} median ${f(ms[ms.length >> 1]).padStart(4)} max ${f(ms[ms.length - 1]).padStart(4)} ms  declined ${declined}/${ms.length}\n`,
  );
  if (only)
    for (const [shape, xs] of [...shapes].sort(
      (a, b) => b[1].reduce((x, y) => x + y) - a[1].reduce((x, y) => x + y),
    ))
      process.stdout.write(
        `  ${shape.padEnd(36)} ${String(xs.length).padStart(4)} requests, mean ${(xs.reduce((x, y) => x + y) / xs.length).toFixed(1)} ms, total ${f(xs.reduce((x, y) => x + y))} ms\n`,
      );
}
await pool.end();
