// Fairness of the expensive-work gate: one account's latency alone, then while another account floods
// the service with heavy requests, on the same service (started as `npm start` starts it).
//   npx tsx bench/fairness.ts --data bench/data/jobs-20000-seed-1-rounds-1 [options]
//   npx tsx bench/fairness.ts --database-url URL [--data-dir DIR] [options]
// The light account drives the varied mix of `npm run bench` (bench/lib/mix.ts) on a few connections; the
// flooding accounts (one unless told) send description phrase searches (with offsets, prefixes, collapsed), which
// PostgreSQL answers by a scan, on many. Printed: both phases' figures and the ratio of the light account's p99
// under the flood to its p99 alone (the gate's aim: at most 2×). See bench/README.md, "Fairness".
import { parseArgs } from 'node:util';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import { drive, type Figures } from './lib/drive.ts';
import { buildVariedKinds, type Kind, sampleData } from './lib/mix.ts';
import { buildService, cli, freePort, ROOT, SERVICE_ENTRY, startServer } from './lib/proc.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const USAGE = `usage: npx tsx bench/fairness.ts (--data DIR | --database-url URL [--data-dir DIR]) [options]

  --data DIR               a directory of \`npm run bench\` (bench/data/jobs-…): its embedded PostgreSQL
                           and its saved match index
  --database-url URL       a loaded PostgreSQL instead (the match index is then built at start unless
                           --data-dir holds a saved one)
  --seconds S              measuring time of each phase (default 15)
  --warmup S               the light account's mix before measuring (default 5)
  --light-connections C    the light account's connections (default 4)
  --heavy-connections C    the flooding accounts' connections, shared evenly among them (default 32)
  --heavy-accounts N       how many accounts flood (default 1): several hold more of the gate's slots
                           at once than one account may
  --set NAME=VALUE         a setting of the service (repeatable), e.g. --set EXPENSIVE_PER_PROCESS=1000
                           to see the same flood without the gate
`;

let opts: ReturnType<typeof parse>;
function parse() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      seconds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '5' },
      'light-connections': { type: 'string', default: '4' },
      'heavy-connections': { type: 'string', default: '32' },
      'heavy-accounts': { type: 'string', default: '1' },
      set: { type: 'string', multiple: true, default: [] },
    },
  });
  const n = (name: keyof typeof values) => {
    const v = Number(values[name]);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a whole number`);
    return v;
  };
  if (!values.data === !values['database-url']) throw new Error('give --data or --database-url');
  const settings = Object.fromEntries(
    values.set.map((s) => {
      const at = s.indexOf('=');
      if (at < 1) throw new Error(`--set ${s}: NAME=VALUE`);
      return [s.slice(0, at), s.slice(at + 1)];
    }),
  );
  return {
    data: values.data,
    databaseUrl: values['database-url'],
    dataDir: values['data-dir'] ?? values.data,
    seconds: n('seconds'),
    warmup: n('warmup'),
    light: n('light-connections'),
    heavy: n('heavy-connections'),
    heavyAccounts: Math.max(1, n('heavy-accounts')),
    settings,
  };
}
try {
  opts = parse();
} catch (err) {
  say(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

const cleanup: (() => Promise<void>)[] = [];

/** An account with limits out of the way (the limiter still runs) and a new key of it. */
async function keyOf(account: string, env: NodeJS.ProcessEnv): Promise<string> {
  const limits = ['--rate-limit', '10000000', '--monthly-quota', '2000000000'];
  await cli(['accounts', 'create', account, ...limits], env, false).catch(() =>
    cli(['accounts', 'set-limits', account, ...limits], env, false),
  );
  return (await cli(['keys', 'create', '--account', account], env, false)).trim();
}

/**
 * Heavy requests PostgreSQL answers by a scan: description phrases of common words (the match index
 * keeps no positions of descriptions), deep, with a prefix, or collapsed.
 */
function floodKind(words: string[]): Kind {
  const paths: string[] = [];
  words.forEach((w, i) => {
    const next = words[(i + 1) % words.length];
    const phrase = encodeURIComponent(`"${w} ${next}"`);
    const prefix = encodeURIComponent(`${w.slice(0, Math.max(4, Math.ceil(w.length * 0.6)))}:* <-> ${next}`);
    for (const offset of [0, 100, 500, 1000, 2000])
      paths.push(`/v1/jobs?description=${phrase}&offset=${offset}`);
    paths.push(`/v1/jobs?description_advanced=${prefix}`);
    paths.push(`/v1/jobs?collapse=true&description=${phrase}&offset=${i % 7}`);
  });
  // Spread so that one word's requests do not come together.
  for (let i = paths.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return { name: 'flood', weight: 100, paths };
}

/** The flooding accounts' figures together: counts summed, the slowest of their percentiles. */
function together(all: Figures[]): Figures {
  if (all.length === 1) return all[0];
  const sum = (k: 'requests' | 'rps' | 'errors' | 'non2xx') => all.reduce((a, f) => a + f[k], 0);
  const slowest = (k: 'p50_ms' | 'p95_ms' | 'p99_ms' | 'max_ms') => Math.max(...all.map((f) => f[k]));
  const statuses: Record<string, number> = {};
  for (const f of all) for (const [s, n] of Object.entries(f.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  const requests = sum('requests');
  return {
    requests,
    seconds: all[0].seconds,
    rps: Math.round(sum('rps')),
    p50_ms: slowest('p50_ms'),
    p95_ms: slowest('p95_ms'),
    p99_ms: slowest('p99_ms'),
    max_ms: slowest('max_ms'),
    errors: sum('errors'),
    non2xx: sum('non2xx'),
    statuses,
    mean_bytes: Math.round(all.reduce((a, f) => a + f.mean_bytes * f.requests, 0) / Math.max(1, requests)),
  };
}

const brief = (f: Figures) =>
  `${f.requests} requests, p50 ${f.p50_ms} ms, p99 ${f.p99_ms} ms, max ${f.max_ms} ms, ${f.rps} req/s, statuses ${JSON.stringify(f.statuses)}, ${f.errors} errors`;

async function main() {
  let url = opts.databaseUrl;
  if (!url) {
    const server = await startEmbedded(opts.data!, 54_430);
    cleanup.push(() => server.stop());
    url = server.url;
  }
  const dataDir = path.resolve(opts.dataDir ?? path.join(ROOT, 'bench/data/fairness'));
  const env = { DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const light = await keyOf('fairness-light', env);
  const heavy: string[] = [];
  for (let i = 0; i < opts.heavyAccounts; i++)
    heavy.push(await keyOf(i ? `fairness-heavy-${i + 1}` : 'fairness-heavy', env));

  const pool = new pg.Pool({ connectionString: url, max: 2 });
  cleanup.push(() => pool.end());
  const sample = await sampleData(pool);
  const flood = floodKind(sample.descriptionWords.slice(0, 100));
  // Three different orders of the varied mix: warming up, alone, and under the flood.
  const mix = (seed: number) => buildVariedKinds(sample, 1000, seed);

  const port = await freePort();
  buildService();
  // The metrics listener is left off: another service on this machine may hold its port.
  const settings = { METRICS_PORT: '0', ...opts.settings };
  say(`service: the defaults of \`npm start\` but ${JSON.stringify(settings)}`);
  const service = await startServer(
    'service',
    SERVICE_ENTRY,
    [],
    { DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), ...settings },
    port,
    '/v1/health',
  );
  cleanup.push(() => service.stop());

  say(`warming up: the light account's mix for ${opts.warmup} s`);
  if (opts.warmup) await drive(service.base, light, mix(3), opts.warmup, opts.light);
  say(`light account alone: ${opts.light} connections, ${opts.seconds} s`);
  const alone = await drive(service.base, light, mix(1), opts.seconds, opts.light);
  say(`  ${brief(alone)}`);
  say(
    `light account under the flood: ${opts.heavy} connections of heavy requests from ${heavy.length} other account(s)`,
  );
  const share = (i: number) =>
    Math.floor(opts.heavy / heavy.length) + (i < opts.heavy % heavy.length ? 1 : 0);
  const [during, ...floods] = await Promise.all([
    drive(service.base, light, mix(2), opts.seconds, opts.light),
    ...heavy.map((key, i) => drive(service.base, key, [flood], opts.seconds, share(i))),
  ]);
  const flooding = together(floods);
  say(`  light: ${brief(during)}`);
  say(`  flood: ${brief(flooding)}`);
  const ratio = alone.p99_ms ? Math.round((during.p99_ms / alone.p99_ms) * 100) / 100 : null;
  const result = {
    settings,
    seconds: opts.seconds,
    connections: { light: opts.light, heavy: opts.heavy },
    heavy_accounts: heavy.length,
    light_alone: alone,
    light_under_flood: during,
    flood: flooding,
    p99_ratio: ratio,
  };
  process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
  say(
    `light p99: ${alone.p99_ms} ms alone, ${during.p99_ms} ms under the flood: ${ratio}× (aim ≤ 2×); flood answered ${flooding.statuses['200'] ?? 0}, refused ${(flooding.statuses['429'] ?? 0) + (flooding.statuses['503'] ?? 0)} (429/503)`,
  );
}

let code = 0;
try {
  await main();
} catch (err) {
  say(`fairness failed: ${(err as Error).stack ?? err}`);
  code = 1;
}
for (const fn of cleanup.reverse()) await fn().catch((e) => say(`cleanup: ${(e as Error).message}`));
process.exit(code);
