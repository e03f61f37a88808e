// Entry: config → database → setup → buildApp → listen, with graceful shutdown.
// With WORKERS > 1 the primary process prepares the database and forks HTTP workers (node:cluster);
// the workers share the primary's PostgreSQL and the limiter's store. What only the primary does (setup,
// the demo load, schedules, supervision, metrics) is imported only by the primary, so that an HTTP worker
// never loads ingestion, enrichment or the gazetteer.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { ConfigError, type Config, loadConfig } from './config.ts';
import { getSetting } from './db/migrations.ts';
import { type Db, openDb } from './db/pool.ts';
import type { MatchSource } from './service/match-host.ts';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
// Operational messages go through pino, like the service's request logs (JSON lines on stderr); the
// start-up banner and the demo key are the only plain text, for the person at the terminal.
let log = pino(pino.destination(2));
const useLevel = (config: Config) => {
  log = pino({ level: config.LOG_LEVEL }, pino.destination(2));
};
const say = (msg: string) => log.info(msg);
const fail = (msg: string) => log.error(msg);
const banner = (msg: string) => process.stderr.write(`${msg}\n`);

/**
 * Shows a new API key to the person who started the service, never to a log: on stderr only when it is a
 * terminal, and as an IPC message when a parent process started us with a channel.
 */
function showKey(key: string | undefined): string {
  if (!key) return '<API_KEY>';
  process.send?.({ type: 'demo-key', key });
  if (process.stderr.isTTY) return key;
  return `${key.slice(0, 8)}… (shown in full only on a terminal; create another with: npm run cli -- keys create --account demo)`;
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
  });
  const address = await app.fastify.listen({ port: config.PORT, host: config.HOST });
  if (announce) {
    const base = address.replace('0.0.0.0', '127.0.0.1');
    banner(`\nJob Postings Search Service ${version} listening on ${base}`);
    banner(`  curl -H "Authorization: Bearer ${showKey(key)}" "${base}/v1/jobs?limit=2"`);
    banner(`  OpenAPI: ${base}/openapi.json   health: ${base}/v1/health   docs: ${base}/docs`);
    banner(`  explore the index in a browser: ${base}/explore\n`);
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
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  try {
    const { ensureDemoKey, loadDemoApart, prepareDatabase } = await import('./service/setup.ts');
    const { startSchedules } = await import('./service/schedules.ts');
    const { serveMetrics } = await import('./service/metrics-server.ts');
    const { superviseWorkers } = await import('./service/supervisor.ts');
    const { hostMatchIndex } = await import('./service/match-host.ts');
    await prepareDatabase(db);
    const loaded = await loadDemoApart(db, config, say);
    if (loaded) say(`demo dataset loaded: ${loaded} postings`);
    const key = await ensureDemoKey(db, config);
    if (key)
      banner(
        `created account "demo" with the API key ${showKey(key)}\n(shown once: it cannot be recovered; keep it)`,
      );
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
    if (match) shutdown.push(match.stop);
    if (config.WORKERS <= 1) {
      shutdown.push(await serve(config, db, true, key, match?.service));
      return;
    }
    const env = { ...process.env, DATABASE_URL: db.url, JPS_WORKER: '1' };
    const workers = superviseWorkers({
      workers: config.WORKERS,
      env,
      log: (msg) => log.warn(msg),
      onReady() {
        const base = `http://${config.HOST}:${config.PORT}`;
        banner(`\nJob Postings Search Service ${version} listening on ${base} (${config.WORKERS} workers)`);
        banner(`  curl -H "Authorization: Bearer ${showKey(key)}" "${base}/v1/jobs?limit=2"`);
        banner(`  OpenAPI: ${base}/openapi.json   health: ${base}/v1/health   docs: ${base}/docs`);
        banner(`  explore the index in a browser: ${base}/explore\n`);
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
  process.on('SIGINT', () => {});
}

if (cluster.isPrimary) await primary();
else await worker();
