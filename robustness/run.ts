// `npm run robustness`: the service probed as a hostile client and a bad day in production would treat
// it, on loopback, bounded in time (a few minutes). Every phase prints its figures; any broken promise
// (a 500, a missing header, a key in a log, a worker not replaced, wrong data from a tampered cursor, an
// index that differs after killed loads) is listed at the end and makes the exit code 1.
//
// Environment: PORT (default 18100), EMBEDDED_PG_PORT (54310) for the PostgreSQL started here, or
// DATABASE_URL to use a running server (databases robust_* are created on it and dropped afterwards).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import {
  contractProblem,
  drive,
  mergeInto,
  newTally,
  parseRawAnswer,
  quantile,
  raw,
  request,
} from './client.ts';
import { fuzzPaths, HOSTILE_VALUES, RAW_SHAPES, randomValues, tamperedCursors } from './hostile.ts';
import { buildService, ROOT, rssMb, SERVICE_ENTRY, type Service, startService, waitFor } from './service.ts';

const PORT = Number(process.env.PORT ?? 18100);
const failures: string[] = [];
const figures: Record<string, unknown> = {};
const say = (m: string) => process.stdout.write(`${m}\n`);
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sum of a counter over the summary lines of a pino log file. */
const logCounter = (file: string, name: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .reduce((n, l) => n + (Number((JSON.parse(l) as Record<string, unknown>)[name]) || 0), 0);

const dir = path.join(ROOT, '.tmp', `robustness-${Date.now()}`);
fs.mkdirSync(dir, { recursive: true });
buildService();

// ---- PostgreSQL ---------------------------------------------------------------------------------
let baseUrl = process.env.DATABASE_URL;
let stopPg: (() => Promise<void>) | undefined;
if (!baseUrl) {
  const pgDir = path.join(dir, 'pg');
  fs.mkdirSync(pgDir);
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(pgDir, 0o755);
  const server = await startEmbedded(pgDir, Number(process.env.EMBEDDED_PG_PORT ?? 54310));
  baseUrl = server.url;
  stopPg = () => server.stop();
}
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
const suffix = Date.now().toString(36);
const dbUrl = (name: string) => {
  const u = new URL(baseUrl!);
  u.pathname = `/${name}`;
  return u.toString();
};
const created: string[] = [];
async function createDb(name: string): Promise<string> {
  await admin.query(`CREATE DATABASE ${name}`);
  created.push(name);
  return dbUrl(name);
}
const DB = `robust_${suffix}`;
const serviceEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: dbUrl(DB),
  DATA_DIR: path.join(dir, 'data'),
  PORT: String(PORT),
  HOST: '127.0.0.1',
  WORKERS: '2',
  LOG_LEVEL: 'info',
  REQUEST_LOG_INTERVAL_S: '5',
  RATE_LIMIT_PER_MINUTE: '10000000',
  DEMO_JOBS: process.env.DEMO_JOBS ?? '3000',
  RESPONSE_STALL_MS: '5000',
  STATEMENT_TIMEOUT_MS: '5000',
  POOL_ACQUIRE_TIMEOUT_MS: '2000',
  ...extra,
});

/**
 * Cheap searches alone, then the same alongside 80 connections of heavy ones that PostgreSQL answers by
 * a scan (collapse, deep offset, description prefixes): more than an account's share and its queue in
 * each worker, so some are turned away however fast they run.
 */
async function expensiveMix(port: number, auth: Record<string, string>) {
  const cheap = () => `/v1/jobs?limit=10&country=US`;
  const heavy = () =>
    `/v1/jobs?collapse=true&offset=${1000 + Math.floor(Math.random() * 1000)}&description_advanced=${encodeURIComponent('engin:* | manag:*')}`;
  const alone = await drive(port, cheap, { concurrency: 4, headers: auth, durationMs: 5000 });
  const [others, attacker] = await Promise.all([
    drive(port, cheap, { concurrency: 4, headers: auth, durationMs: 8000 }),
    drive(port, heavy, { concurrency: 80, headers: auth, durationMs: 8000 }),
  ]);
  const sum = (t: typeof alone) => ({
    requests: t.requests,
    statuses: t.statuses,
    p50: quantile(t.latencies, 0.5),
    p99: quantile(t.latencies, 0.99),
  });
  return {
    cheapAlone: sum(alone),
    cheapDuringHeavy: sum(others),
    heavy: sum(attacker),
    violations: [...alone.violations, ...others.violations, ...attacker.violations],
  };
}

const started = Date.now();
// For the second service started on the same database (which creates no new key); never printed.
let demoKey = '';
let svc: Service | undefined;
try {
  await createDb(DB);
  say(`service: starting on 127.0.0.1:${PORT} (2 workers, demo dataset), logs in ${dir}`);
  svc = await startService(dir, 'service', serviceEnv());
  const auth = { authorization: `Bearer ${svc.key}` };
  demoKey = svc.key;
  say(`service: up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // ---- 1. fuzzing every endpoint ----------------------------------------------------------------
  {
    const values = [...HOSTILE_VALUES, ...randomValues(60, 20)];
    const paths = fuzzPaths(values);
    const t0 = Date.now();
    const tally = await drive(svc.port, paths, { concurrency: 8, headers: auth });
    figures.fuzz = {
      requests: tally.requests,
      statuses: tally.statuses,
      errors: tally.errors,
      s: (Date.now() - t0) / 1000,
    };
    say(
      `fuzz: ${tally.requests} requests, statuses ${JSON.stringify(tally.statuses)}, ${tally.errors} errors`,
    );
    check(
      tally.violations.length === 0,
      `fuzz: ${tally.violations.length} contract violations, e.g. ${tally.violations.slice(0, 5).join(' | ')}`,
    );
    check(!tally.statuses[500], 'fuzz: a 500');
    check(tally.errors === 0, `fuzz: ${tally.errors} connection errors`);
    // Every method on every known path.
    const methods = [
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'HEAD',
      'TRACE',
      'PROPFIND',
      'SEARCH',
      'MKCOL',
      'PURGE',
      'LINK',
      'UNLOCK',
      'QUERY',
      'LOCK',
      'COPY',
      'MOVE',
    ];
    const mt = newTally();
    for (const p of [
      '/v1/jobs',
      '/v1/jobs/count',
      '/v1/jobs/x',
      '/v1/companies',
      '/v1/meta',
      '/v1/health',
      '/openapi.json',
    ]) {
      for (const method of methods) {
        mt.requests++;
        const a = await request(svc.port, p, { method, headers: auth });
        mt.statuses[a.status] = (mt.statuses[a.status] ?? 0) + 1;
        if (a.status !== 405 || a.headers.allow !== 'GET, OPTIONS')
          mt.violations.push(`${method} ${p} → ${a.status}`);
        const problem = contractProblem(p, a, method);
        if (problem) mt.violations.push(problem);
      }
    }
    const unknownOptions = await request(svc.port, '/v1/nowhere', { method: 'OPTIONS' });
    check(unknownOptions.status === 404, `OPTIONS on an unknown path gave ${unknownOptions.status}`);
    figures.methods = { requests: mt.requests, statuses: mt.statuses };
    say(`methods: ${mt.requests} requests, statuses ${JSON.stringify(mt.statuses)}`);
    check(mt.violations.length === 0, `methods: ${mt.violations.slice(0, 5).join(' | ')}`);
  }

  // ---- 2. raw HTTP ------------------------------------------------------------------------------
  {
    const results: Record<string, number> = {};
    for (const shape of RAW_SHAPES) {
      const text = await raw(
        svc.port,
        shape.data.replace(/\r\nHost: x\r\n/, `\r\nHost: x\r\nAuthorization: Bearer ${svc.key}\r\n`),
      );
      const a = parseRawAnswer(text);
      results[shape.name] = a.status;
      check(
        shape.statuses.includes(a.status),
        `raw ${shape.name}: status ${a.status}, expected ${shape.statuses}`,
      );
      const problem = contractProblem(shape.name, a);
      check(!problem, `raw ${shape.name}: ${problem}`);
      check(!text.includes(svc.key.slice(4, 28)), `raw ${shape.name}: the key echoed`);
    }
    figures.raw = results;
    say(`raw HTTP: ${JSON.stringify(results)}`);
    // A request that never finishes its headers: 408 from the server, answered (not dropped).
    const slow = await new Promise<string>((resolve) => {
      const s = net.connect(svc!.port, '127.0.0.1', () => s.write('GET /v1/jobs HTTP/1.1\r\nHost: x\r\n'));
      let out = '';
      s.on('data', (c) => {
        out += c;
      });
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
      setTimeout(() => {
        s.destroy();
        resolve(out);
      }, 45_000).unref();
    });
    const slowAnswer = parseRawAnswer(slow);
    figures.slowHeaders = slowAnswer.status;
    say(`headers never finished: ${slowAnswer.status || 'closed without answer'}`);
    check(
      slowAnswer.status === 408 && !contractProblem('408', slowAnswer),
      `slow headers: ${slowAnswer.status}`,
    );
  }

  // ---- 3. tampered cursors ----------------------------------------------------------------------
  {
    let variants = 0;
    let rejected = 0;
    let sameData = 0;
    for (const base of [
      '/v1/jobs?limit=3',
      '/v1/jobs/feed?since=3650d&limit=3',
      '/v1/jobs/modified?since=3650d&limit=3',
      '/v1/jobs/expired?since=3650d&limit=3',
    ]) {
      const first = JSON.parse((await request(svc.port, base, { headers: auth })).body) as {
        next_cursor?: string;
      };
      if (!first.next_cursor) continue;
      const good = await request(svc.port, `${base}&cursor=${encodeURIComponent(first.next_cursor)}`, {
        headers: auth,
      });
      const paths = tamperedCursors(first.next_cursor).map((c) => `${base}&cursor=${c}`);
      for (const p of paths) {
        const a = await request(svc.port, p, { headers: auth });
        variants++;
        if (a.status === 400) rejected++;
        else if (a.status === 200 && a.body === good.body) sameData++;
        else check(false, `tampered cursor ${p}: ${a.status} with different data`);
      }
    }
    figures.cursors = { variants, rejected, sameData };
    say(
      `cursors: ${variants} tampered variants, ${rejected} rejected with 400, ${sameData} decoded to the same page`,
    );
    check(variants > 100, 'cursors: too few variants');
  }

  // ---- 4. clients that never read ---------------------------------------------------------------
  {
    // Waves of sockets that ask for a large feed page and never read. The server must drop the ones it
    // answered once they stall (seen when the client finally reads: the body is cut short) and memory
    // must not grow with the number of such clients.
    const workers = svc.workerPids();
    const total = () => workers.map(rssMb).reduce((a, b) => a + b, 0);
    const before = total();
    const feed = '/v1/jobs/feed?since=3650d&limit=1000&description_format=html';
    const full = Buffer.byteLength((await request(svc.port, feed, { headers: auth })).body);
    const waves: { peakMb: number; answered: number; cut: number; turnedAway: number; complete: number }[] =
      [];
    for (let wave = 0; wave < 3; wave++) {
      const got: { bytes: number; status: number }[] = [];
      const sockets: net.Socket[] = [];
      for (let i = 0; i < 40; i++) {
        const rec = { bytes: 0, status: 0 };
        got.push(rec);
        const s = net.connect(svc.port, '127.0.0.1', () => {
          s.pause();
          s.write(`GET ${feed} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc!.key}\r\n\r\n`);
        });
        s.on('error', () => {});
        s.on('data', (c: Buffer) => {
          if (!rec.status)
            rec.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(c.toString('latin1', 0, 20))?.[1] ?? 0);
          rec.bytes += c.length;
        });
        sockets.push(s);
      }
      let peak = total();
      const t0 = Date.now();
      // RESPONSE_STALL_MS is 5 s here and the sweep runs every 0.5 s; answers come one after another as
      // expensive-work slots free up, so wait well past the stall limit.
      while (Date.now() - t0 < 20_000) {
        peak = Math.max(peak, total());
        await sleep(250);
      }
      // Now read whatever the server still has for us.
      for (const s of sockets) s.resume();
      await sleep(3000);
      for (const s of sockets) s.destroy();
      const answered = got.filter((g) => g.status === 200);
      waves.push({
        peakMb: peak,
        answered: answered.length,
        cut: answered.filter((g) => g.bytes < full).length,
        complete: answered.filter((g) => g.bytes >= full).length,
        turnedAway: got.filter((g) => g.status === 429 || g.status === 503).length,
      });
    }
    const stillServing = (await request(svc.port, '/v1/jobs?limit=1', { headers: auth })).status;
    const after = total();
    // What the workers say they dropped (their summary lines, every 5 s here).
    await sleep(6000);
    const dropped = logCounter(svc.stdoutFile, 'stalled_dropped');
    figures.neverReading = {
      socketsPerWave: 40,
      responseBytes: full,
      rssBeforeMb: before,
      waves,
      rssAfterMb: after,
      stalledDroppedByWorkers: dropped,
    };
    say(
      `never-reading clients: 3 waves of 40 × ${(full / 1e6).toFixed(1)} MB feed pages; worker RSS ${before} MB before, ${after} MB after; ${dropped} stalled responses dropped; waves ${JSON.stringify(waves)}`,
    );
    const answered = waves.reduce((n, w) => n + w.answered, 0);
    check(answered > 0, 'never-reading: no request was answered');
    const cut = waves.reduce((n, w) => n + w.cut, 0);
    check(cut > 0 && dropped >= cut, `never-reading: ${cut} responses cut, ${dropped} drops logged`);
    check(
      waves[2].peakMb <= waves[1].peakMb * 1.25 + 50,
      `never-reading: memory grows wave after wave ${JSON.stringify(waves.map((w) => w.peakMb))}`,
    );
    check(stillServing === 200, 'never-reading: service not serving meanwhile');

    // The per-address connection cap.
    const held: net.Socket[] = [];
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const s = net.connect(svc.port, '127.0.0.1');
      s.on('error', () => {});
      s.on('data', (c) => {
        if (String(c).startsWith('HTTP/1.1 503')) refused++;
      });
      held.push(s);
    }
    await sleep(1500);
    for (const s of held) s.destroy();
    figures.connectionCap = { opened: 300, refusedWith503: refused };
    say(
      `connection cap: 300 idle connections from one address, ${refused} refused with 503 (cap 128 per worker)`,
    );
    check(refused > 0, 'connection cap: nothing refused');
  }

  // ---- 5. expensive work under load (the gate on; the same mix without it comes after SIGTERM) -----
  {
    const mix = await expensiveMix(svc.port, auth);
    figures.expensive = mix;
    say(`expensive, gated: ${JSON.stringify(mix)}`);
    check(!mix.heavy.statuses[500] && !mix.cheapDuringHeavy.statuses[500], 'expensive: a 500');
    check(
      (mix.heavy.statuses[429] ?? 0) + (mix.heavy.statuses[503] ?? 0) > 0,
      'expensive: the heavy client was never turned away',
    );
    check(mix.violations.length === 0, `expensive: ${mix.violations.slice(0, 3)}`);
  }

  // ---- 6. the database refusing connections, and killed backends --------------------------------
  {
    const kick = () =>
      admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [DB]);
    let outage = true;
    const during = newTally();
    await admin.query(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`);
    await kick();
    const t0 = Date.now();
    const load = drive(svc.port, () => '/v1/jobs?limit=5', {
      concurrency: 4,
      headers: auth,
      until: () => !outage,
    });
    await sleep(8000);
    await admin.query(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`);
    const reopened = Date.now();
    // Time until requests succeed again.
    let recoveredMs = -1;
    while (Date.now() - reopened < 30_000) {
      const a = await request(svc.port, '/v1/jobs?limit=5', { headers: auth });
      if (a.status === 200) {
        recoveredMs = Date.now() - reopened;
        break;
      }
      await sleep(50);
    }
    outage = false;
    mergeInto(during, await load);
    figures.refusingConnections = {
      seconds: (reopened - t0) / 1000,
      requests: during.requests,
      statuses: during.statuses,
      recoveredMs,
    };
    say(
      `database refusing connections 8 s: ${during.requests} requests, statuses ${JSON.stringify(during.statuses)}; recovered ${recoveredMs} ms after it accepted again`,
    );
    check(!during.statuses[500], 'refusing: a 500');
    check((during.statuses[503] ?? 0) > 0, 'refusing: no 503 seen');
    check(during.violations.length === 0, `refusing: ${during.violations.slice(0, 3)}`);
    check(recoveredMs >= 0, 'refusing: no recovery within 30 s');

    // Backends killed every 300 ms under load.
    let killing = true;
    const killer = (async () => {
      let n = 0;
      while (killing) {
        await kick();
        n++;
        await sleep(300);
      }
      return n;
    })();
    const killedLoad = await drive(svc.port, () => '/v1/jobs/count?time_frame=3650d', {
      concurrency: 4,
      headers: auth,
      durationMs: 5000,
    });
    killing = false;
    const kills = await killer;
    figures.killedBackends = { rounds: kills, requests: killedLoad.requests, statuses: killedLoad.statuses };
    say(
      `backends killed ${kills} times under load: ${killedLoad.requests} requests, statuses ${JSON.stringify(killedLoad.statuses)}`,
    );
    check(!killedLoad.statuses[500], 'killed backends: a 500');
    check(killedLoad.violations.length === 0, `killed backends: ${killedLoad.violations.slice(0, 3)}`);
  }

  // ---- 7. a killed worker ------------------------------------------------------------------------
  {
    const workers = svc.workerPids();
    const victim = workers[0];
    let stop = false;
    const load = drive(svc.port, () => '/v1/jobs?limit=5', {
      concurrency: 4,
      headers: auth,
      until: () => stop,
    });
    await sleep(500);
    const t0 = Date.now();
    process.kill(victim, 'SIGKILL');
    const line = await waitFor(
      'the replacement log line',
      () =>
        new RegExp(`worker ${victim} exited \\(signal SIGKILL\\); starting a replacement`).test(
          svc!.stderr(),
        ),
      10_000,
    ).catch(() => false);
    const replaced = await waitFor(
      'a replacement worker',
      () => {
        const now = svc!.workerPids();
        return now.length === workers.length && !now.includes(victim) && now;
      },
      20_000,
    ).catch(() => undefined);
    // Ready: every worker answers (new connections are spread over the workers).
    await sleep(1500);
    const replacedMs = Date.now() - t0;
    stop = true;
    const tally = await load;
    figures.killedWorker = {
      replacedWithinMs: replacedMs,
      logged: line,
      requests: tally.requests,
      statuses: tally.statuses,
      connectionErrors: tally.errors,
    };
    say(
      `worker ${victim} SIGKILLed: replaced=${!!replaced} within ${replacedMs} ms, logged=${line}; load ${JSON.stringify(tally.statuses)}, ${tally.errors} connection errors`,
    );
    check(!!line, 'killed worker: no log line');
    check(!!replaced, 'killed worker: not replaced');
    check(!tally.statuses[500], 'killed worker: a 500');
  }

  // ---- 8. SIGTERM under load ---------------------------------------------------------------------
  {
    let stop = false;
    const load = drive(svc.port, () => '/v1/jobs?limit=20', {
      concurrency: 8,
      headers: auth,
      until: () => stop,
    });
    await sleep(2000);
    const t0 = Date.now();
    svc.child.kill('SIGTERM');
    const code = await svc.exited;
    const drainMs = Date.now() - t0;
    stop = true;
    const tally = await load;
    const non200 = Object.entries(tally.statuses).filter(([s]) => s !== '200');
    figures.sigterm = {
      exitCode: code,
      drainMs,
      requests: tally.requests,
      statuses: tally.statuses,
      refusedAfterClose: tally.errors,
    };
    say(
      `SIGTERM under load: exit ${code} after ${drainMs} ms; ${tally.requests} requests, statuses ${JSON.stringify(tally.statuses)}, ${tally.errors} refused after close`,
    );
    check(code === 0, `SIGTERM: exit code ${code}`);
    check(non200.length === 0, `SIGTERM: an accepted request failed: ${JSON.stringify(tally.statuses)}`);
    check(tally.violations.length === 0, `SIGTERM: ${tally.violations.slice(0, 3)}`);
    svc = undefined;
  }

  // ---- 8b. the same expensive mix with the gate off, for comparison ----------------------------
  {
    const key = demoKey;
    const open = await startService(
      dir,
      'ungated',
      serviceEnv({ EXPENSIVE_PER_PROCESS: '1000', EXPENSIVE_PER_ACCOUNT: '1000' }),
      key,
    );
    const mix = await expensiveMix(open.port, { authorization: `Bearer ${key}` });
    figures.expensiveUngated = mix;
    say(`expensive, gate off: ${JSON.stringify(mix)}`);
    open.child.kill('SIGTERM');
    await open.exited;
  }

  // ---- 9. a service that cannot serve exits non-zero -------------------------------------------
  {
    // The port is taken: no worker can listen.
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(PORT + 1, '127.0.0.1', r));
    const t0 = Date.now();
    const child = spawn(process.execPath, [SERVICE_ENTRY], {
      cwd: ROOT,
      env: { ...process.env, ...serviceEnv({ PORT: String(PORT + 1), HOST: '127.0.0.1' }) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
    });
    const code = await new Promise<number | null>((r) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        r(null);
      }, 120_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        r(c);
      });
    });
    blocker.close();
    figures.cannotServe = { exitCode: code, afterMs: Date.now() - t0 };
    say(`port taken: primary exited with ${code} after ${Date.now() - t0} ms`);
    check(code !== 0 && code !== null, `cannot serve: exit code ${code}`);
    check(/cannot serve/.test(err), 'cannot serve: no message');
  }

  // ---- 10. SIGKILL mid-load, then a full load equals a clean load -----------------------------
  {
    const files = fs
      .readdirSync(path.join(dir, 'data', 'demo'))
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    const file = path.join(dir, 'data', 'demo', files[0]);
    const killedDb = await createDb(`robust_killed_${suffix}`);
    const cleanDb = await createDb(`robust_clean_${suffix}`);
    const ingest = (url: string) =>
      spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts'), 'ingest', file], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
    const run = (url: string) =>
      new Promise<number | null>((r) => {
        ingest(url).on('exit', (c) => r(c));
      });
    const kills: number[] = [];
    const watch = new pg.Client({ connectionString: killedDb });
    await watch.connect();
    const rows = async () =>
      (await watch.query('SELECT count(*)::int AS n FROM jobs').catch(() => ({ rows: [{ n: 0 }] }))).rows[0]
        .n as number;
    // Each load is killed once it has added rows past a mark (the first load from an empty index), so
    // kills land early, in the middle and late; a load that finishes first is simply not killed.
    for (const mark of [1, 1000, 2000]) {
      const child = ingest(killedDb);
      const exited = new Promise((r) => child.on('exit', r));
      let finished = false;
      void exited.then(() => {
        finished = true;
      });
      while (!finished && (await rows()) < mark) await sleep(20);
      child.kill('SIGKILL');
      await exited;
      kills.push(await rows());
    }
    await watch.end();
    const fullCode = await run(killedDb);
    const cleanCode = await run(cleanDb);
    const snapshot = async (url: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const { rows } = await c.query(
        `SELECT md5(string_agg(concat_ws('|', id, state, duplicate_of, company_slug, title_raw, posted_at, expires_at,
                 gone, content_hash, array_to_string(skills, ','), salary_annual_min, salary_annual_max), E'\\n' ORDER BY id)) AS h,
                count(*)::int AS n FROM jobs`,
      );
      const companies = await c.query(
        `SELECT md5(string_agg(slug, ',' ORDER BY slug)) AS h, count(*)::int AS n FROM companies`,
      );
      await c.end();
      return { jobs: rows[0], companies: companies.rows[0] };
    };
    const [a, b] = [await snapshot(killedDb), await snapshot(cleanDb)];
    figures.killedLoads = {
      rowsAtEachKill: kills,
      afterFullLoad: a.jobs.n,
      clean: b.jobs.n,
      equal: a.jobs.h === b.jobs.h && a.companies.h === b.companies.h,
    };
    say(
      `SIGKILLed loads at ${kills.join(', ')} rows, then a full load: ${a.jobs.n} jobs / ${a.companies.n} companies vs clean ${b.jobs.n} / ${b.companies.n}; identical=${a.jobs.h === b.jobs.h && a.companies.h === b.companies.h}`,
    );
    check(fullCode === 0 && cleanCode === 0, `loads exited ${fullCode}, ${cleanCode}`);
    check(
      a.jobs.h === b.jobs.h && a.companies.h === b.companies.h,
      'killed loads: the index differs from a clean load',
    );
  }
} catch (err) {
  failures.push(`aborted: ${(err as Error).stack}`);
} finally {
  if (svc) {
    svc.child.kill('SIGTERM');
    await svc.exited;
  }
}

// ---- 11. no key in any log ----------------------------------------------------------------------
{
  const logs = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
  let bytes = 0;
  let lines = 0;
  let perRequest = 0;
  const hits: string[] = [];
  for (const f of logs) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    bytes += text.length;
    for (const line of text.split('\n')) {
      if (!line) continue;
      lines++;
      if (/"msg":"request"/.test(line)) perRequest++;
      // Any 40+ hex run (a key is 48 hex characters after its prefix), raw or percent-encoded.
      if (/[0-9a-f]{40}/i.test(line) || /(%[0-9a-f]{2}){40}/i.test(line))
        hits.push(`${f}: ${line.slice(0, 200)}`);
    }
  }
  figures.logs = {
    files: logs.length,
    bytes,
    lines,
    perRequestLinesAtInfo: perRequest,
    keyLikeHits: hits.length,
  };
  say(
    `logs: ${logs.length} files, ${lines} lines, ${bytes} bytes; ${perRequest} per-request lines at info; ${hits.length} key-like strings`,
  );
  check(hits.length === 0, `a key in a log: ${hits.slice(0, 3).join(' | ')}`);
  check(perRequest === 0, 'per-request lines at info level');
}

for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
await admin.end();
await stopPg?.();
figures.totalSeconds = Math.round((Date.now() - started) / 1000);
fs.writeFileSync(path.join(dir, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
say(`\nfigures: ${path.join(dir, 'figures.json')} (${figures.totalSeconds} s in all)`);
if (failures.length) {
  say(`\nFAILED (${failures.length}):\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
say('all robustness checks held');
process.exit(0);
