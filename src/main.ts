// Entry: config → database → setup → buildApp → listen, with graceful shutdown.
// With WORKERS > 1 the primary process prepares the database and forks HTTP workers (node:cluster);
// the workers share the primary's PostgreSQL and the limiter's store. What only the primary does (setup,
// the demo load, schedules, supervision, metrics) is imported only by the primary, so that an HTTP worker
// never loads ingestion, enrichment or the gazetteer.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { ConfigError, type Config, loadConfig } from './config.ts';
import { getSetting } from './db/migrations.ts';
import { type Db, openDb } from './db/pool.ts';
import { bannerLines, clientBase, newKeyLines } from './service/banner.ts';
import { logStream } from './service/log-stream.ts';
import type { MatchSource } from './service/match-host.ts';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
// Operational messages go through pino, like the service's request logs (JSON lines on stderr, readable
// lines on a terminal); the start-up banner and the demo key are the only plain text, for the person at
// the terminal.
let log = pino(logStream(2));
const useLevel = (config: Config) => {
  log = pino({ level: config.LOG_LEVEL }, logStream(2));
};
const say = (msg: string) => log.info(msg);
const fail = (msg: string) => log.error(msg);
const banner = (msg: string) => process.stderr.write(`${msg}\n`);

/**
 * A new API key goes to the person who started the service, never to a log: on stderr only when it is a
 * terminal (bannerLines), and as an IPC message when a parent process started us with a channel.
 */
function keyFacts(key: string | undefined): { key?: string; terminal: boolean } {
  if (key) process.send?.({ type: 'demo-key', key });
  return { key, terminal: Boolean(process.stderr.isTTY) };
}

async function serve(
  config: Config,
  db: Db,
  announce: boolean,
  key?: string,
  match?: MatchSource,
): Promise<() => Promise<void>> {
  const { buildApp } = await import('./http/app.ts');
  const { createLimiter } = await import('./limiter/limiter.ts');
  const cursorSecret = (await getSetting(db.write, 'cursor_secret'))!;
  const limiter = await createLimiter(config, db, {
    log: (level, msg) => log[level]({ component: 'limiter' }, msg),
  });
  const app = await buildApp({
    ctx: { db, config, cursorSecret, version, fullTextSearch: config.FULL_TEXT_SEARCH, match },
    limiter,
    logger: { stream: logStream(1) },
  });
  if (config.WARM_UP_MS > 0 && config.WARM_UP_REQUESTS > 0) {
    const w = await app.warmUp({
      ms: config.WARM_UP_MS,
      requests: config.WARM_UP_REQUESTS,
      concurrency: config.POOL_MAX,
    });
    log.info({ component: 'warm-up', ...w }, `warmed up: ${w.requests} requests in ${w.ms} ms`);
  }
  await app.fastify.listen({ port: config.PORT, host: config.HOST });
  if (announce) {
    const { port } = app.fastify.server.address() as AddressInfo;
    const base = clientBase(config.HOST, port);
    banner(bannerLines({ version, base, workers: 1, ...keyFacts(key) }).join('\n'));
  }
  return () => app.close();
}

async function primary(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      banner(`configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  useLevel(config);
  if (config.WORKERS > 1) (await import('./service/supervisor.ts')).keepYoungGenerationSmall();
  let db: Db;
  try {
    db = await openDb(config, {
      log: (msg) => log.warn(msg),
      onPoolError: (e) => fail(`database connection error: ${e.message}`),
    });
  } catch (err) {
    fail(`start-up failed: ${(err as Error).message}`);
    process.exit(1);
  }
  const shutdown: (() => Promise<void>)[] = [];
  let stopping = false;
  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: draining requests and stopping`);
    for (const fn of shutdown.reverse()) await fn().catch((e) => fail(`shutdown: ${(e as Error).message}`));
    await db.close();
    process.exit(code);
  };
  // SIGHUP is the terminal closing: stop as for SIGTERM, so that the embedded database stops with us.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  try {
    const { describeDemoLoad, ensureDemoKey, loadDemoApart, prepareDatabase } = await import(
      './service/setup.ts'
    );
    const { startSchedules } = await import('./service/schedules.ts');
    const { countMatchIndex, serveMetrics } = await import('./service/metrics-server.ts');
    const { superviseWorkers } = await import('./service/supervisor.ts');
    const { hostMatchIndex } = await import('./service/match-host.ts');
    await prepareDatabase(db);
    const loaded = await loadDemoApart(db, config, say);
    if (loaded) say(describeDemoLoad(loaded));
    const key = await ensureDemoKey(db, config);
    for (const line of newKeyLines(key, Boolean(process.stderr.isTTY))) banner(line);
    const schedules = startSchedules(db, config, (m, e) =>
      e ? fail(`${m}: ${(e as Error).message}`) : say(m),
    );
    shutdown.push(async () => schedules.stop());
    shutdown.push(await serveMetrics(config, db, banner));
    const match = config.MATCH_INDEX
      ? await hostMatchIndex(db, { ...config, DATABASE_URL: db.url }, (m, e) =>
          e ? fail(`${m}: ${(e as Error).message}`) : say(m),
        )
      : undefined;
    if (match) {
      shutdown.push(match.stop);
      countMatchIndex(() => match.service.bytes());
    }
    if (config.WORKERS <= 1) {
      shutdown.push(await serve(config, db, true, key, match?.service));
      return;
    }
    // One gate on expensive work for every worker: an account's bound holds across them.
    const { hostExpensiveGate } = await import('./http/expensive-gate.ts');
    const { expensiveLimits } = await import('./http/expensive.ts');
    const stopGate = hostExpensiveGate(expensiveLimits(config));
    shutdown.push(async () => stopGate());
    const env = { ...process.env, DATABASE_URL: db.url, JPS_WORKER: '1' };
    const workers = superviseWorkers({
      workers: config.WORKERS,
      env,
      log: (msg) => log.warn(msg),
      onReplaced: (pid) => say(`replacement worker ${pid} listening`),
      onReady() {
        const base = clientBase(config.HOST, config.PORT);
        banner(bannerLines({ version, base, workers: config.WORKERS, ...keyFacts(key) }).join('\n'));
      },
      // No worker can serve: exit non-zero so that a supervisor (systemd, Kubernetes) notices and acts.
      onGiveUp(reason) {
        fail(`cannot serve: ${reason}; stopping`);
        void stop('give-up', 1);
      },
    });
    shutdown.push(() => workers.stop());
  } catch (err) {
    fail(`start-up failed: ${(err as Error).message}`);
    await db.close();
    process.exit(1);
  }
}

async function worker(): Promise<void> {
  const config = loadConfig();
  useLevel(config);
  const db = await openDb(config, { onPoolError: (e) => fail(`database connection error: ${e.message}`) });
  const close = await serve(config, db, false);
  process.send?.('ready');
  const stop = async () => {
    await close().catch(() => {});
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  // A terminal's Ctrl-C or hang-up reaches every process of its group: the primary stops the workers.
  process.on('SIGINT', () => {});
  process.on('SIGHUP', () => {});
}

if (cluster.isPrimary) await primary();
else await worker();
