// Metrics as an operator scrapes them: a real service process with two workers, requests spread over
// both, then GET /metrics on METRICS_PORT parsed as Prometheus text and checked against what was sent.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/jsonl.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { ensureDemoKey, prepareDatabase } from '../../src/service/setup.ts';
import { SAMPLE } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { SERVICE_ENTRY } from '../helpers/service-entry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

let db: TestDb;
let child: ChildProcess;
let exited: Promise<number | null>;
let key: string;
let api: string;
let metricsUrl: string;
/** What the service wrote to stderr, shown when an assertion about it fails. */
let serviceErr = '';
const dataDir = path.join(os.tmpdir(), `jps-metrics-${process.pid}`, 'data');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** GET on a new connection each time, so that the cluster hands requests to both workers. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition: `# TYPE` lines and `name{label="v",...} value` samples. */
function parse(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { types, samples };
}

beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
  await ingestFile(db, SAMPLE);
  await runRefresh(db);
  key = (await ensureDemoKey(db, db.config))!;
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: db.url,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    WORKERS: '2',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    // Not created beforehand: with an external database nothing else makes it before the match index.
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_READ_URL;
  child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: ROOT, env });
  let err = '';
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${err}`)), 90_000);
    child.stderr?.on('data', (c) => {
      err += String(c);
      serviceErr = err;
      if (/listening on .*\(2 workers\)/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stdout?.resume();
    exited.then((code) => reject(new Error(`exited with ${code}:\n${err}`)));
  });
  expect(err).toContain(`metrics: http://127.0.0.1:${metricsPort}/metrics`);
  api = `http://127.0.0.1:${port}`;
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited;
  }
  await db?.drop();
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

describe('GET /metrics with two workers', () => {
  it('counts what was sent, summed over the workers, with pool, limiter, totals, dataset and process figures', async () => {
    const auth = { authorization: `Bearer ${key}` };
    // New connections are handed to the workers in turn, so the totals below are sums over both.
    const N = 24;
    for (let i = 0; i < N; i++) expect((await get(`${api}/v1/jobs?limit=2`, auth)).status).toBe(200);
    // A filter the match index does not hold (a description phrase), so that the totals cache is looked up.
    for (let i = 0; i < 4; i++)
      expect(
        (await get(`${api}/v1/jobs/count?country=US&description=%22senior%20engineer%22`, auth)).status,
      ).toBe(200);
    expect((await get(`${api}/v1/jobs?limit=2`)).status).toBe(401);
    expect((await get(`${api}/v1/jobs?limit=x`, auth)).status).toBe(400);
    expect((await get(`${api}/no/such/thing`)).status).toBe(404);
    // The API's port does not serve metrics, and the metrics port serves nothing else.
    expect((await get(`${api}/metrics`)).status).toBe(404);
    expect((await get(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);

    const res = await get(metricsUrl);
    expect(res.status).toBe(200);
    const { types, samples } = parse(res.body);
    const value = (name: string, labels: Record<string, string> = {}) => {
      const found = samples.filter(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      );
      expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeGreaterThan(0);
      return found.reduce((a, s) => a + s.value, 0);
    };

    expect(types.get('http_requests_total')).toBe('counter');
    expect(value('http_requests_total', { route: '/v1/jobs', method: 'GET', status: '200' })).toBe(N);
    expect(value('http_requests_total', { route: '/v1/jobs/count', status: '200' })).toBe(4);
    expect(value('http_requests_total', { route: '/v1/jobs', status: '401' })).toBe(1);
    expect(value('http_requests_total', { route: '/v1/jobs', status: '400' })).toBe(1);
    expect(value('http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);

    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const labels = { route: '/v1/jobs', status: '200' };
    expect(value('http_request_duration_seconds_count', labels)).toBe(N);
    expect(value('http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(N);
    expect(value('http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    const buckets = samples
      .filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.route === '/v1/jobs')
      .filter((s) => s.labels.status === '200')
      .map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));

    for (const name of ['db_pool_in_use', 'db_pool_idle', 'db_pool_waiting']) {
      expect(types.get(name)).toBe('gauge');
      expect(value(name)).toBeGreaterThanOrEqual(0);
    }
    expect(value('db_pool_idle')).toBeGreaterThan(0);
    // Every authenticated request that reached the limiter was allowed (the 400 included).
    expect(value('limiter_decisions_total', { decision: 'allowed' })).toBe(N + 4 + 1);
    expect(value('limiter_decisions_total', { decision: 'rate_limited' })).toBe(0);
    const lookups = value('totals_cache_lookups_total');
    expect(value('totals_cache_lookups_total', { result: 'miss' })).toBeGreaterThan(0);
    expect(lookups).toBeGreaterThanOrEqual(4);
    expect(types.get('match_index_requests_total')).toBe('counter');
    expect(value('match_index_requests_total')).toBeGreaterThan(0);
    // The description phrases are expensive work (the index holds no phrase): the first in each worker
    // took a slot; the second found its total kept there.
    expect(types.get('expensive_gate_wait_seconds')).toBe('histogram');
    const gated = { route: '/v1/jobs/count', outcome: 'admitted' };
    expect(value('expensive_gate_wait_seconds_count', gated)).toBe(2);
    expect(value('expensive_gate_wait_seconds_bucket', { ...gated, le: '+Inf' })).toBe(2);
    expect(types.get('feed_read_ahead_total')).toBe('counter');
    expect(value('feed_read_ahead_total', { outcome: 'served' })).toBeGreaterThanOrEqual(0);

    const version = await db.write.query('SELECT version FROM data_version');
    expect(value('data_version')).toBe(Number(version.rows[0].version));
    const live = await db.write.query('SELECT count(*)::int AS n FROM jobs WHERE state = 0');
    expect(value('live_jobs')).toBe(live.rows[0].n);
    expect(value('ingest_postings_total', { outcome: 'inserted' })).toBe(0);
    expect(types.get('ingest_postings_total')).toBe('counter');

    // Memory of the workers (summed) and of the primary.
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(20_000_000);
    expect(value('primary_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('answers searches from the match index the primary holds, over IPC, once it is built', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const answered = async () => {
      const m = /match_index_requests_total\{result="answered"\} (\d+)/.exec((await get(metricsUrl)).body);
      return Number(m?.[1] ?? 0);
    };
    const before = await answered();
    const want = await db.write.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE state = 0 AND country_codes && '{DE}'`,
    );
    // The primary builds the index in the background as it starts: asked until it answers (a few seconds).
    for (let i = 0; i < 100 && (await answered()) === before; i++) {
      const res = await get(`${api}/v1/jobs/count?country=DE&remote=${i % 2 === 0}`, auth);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await answered(), serviceErr).toBeGreaterThan(before);
    const res = await get(`${api}/v1/jobs/count?country=DE`, auth);
    expect(JSON.parse(res.body).count).toBe(want.rows[0].n);
    // The index's share of the primary's memory: its ids alone are bytes per live job.
    const memory = /^match_index_bytes (\d+)$/m.exec((await get(metricsUrl)).body);
    expect(Number(memory?.[1] ?? 0)).toBeGreaterThan(want.rows[0].n * 4);
  });

  /** How many requests the match index answered and declined, as the metrics count them. */
  const counts = async () => {
    const body = (await get(metricsUrl)).body;
    const n = (result: string) =>
      Number(new RegExp(`match_index_requests_total\\{result="${result}"\\} (\\d+)`).exec(body)?.[1] ?? 0);
    return { answered: n('answered'), declined: n('declined') };
  };

  it('carries an expiry into the index when a request arrives at its version, not at its next look', async () => {
    const auth = { authorization: `Bearer ${key}` };
    // The newest live job with a country that no copy points at, and its country.
    const { rows } = await db.write.query<{ id: string; country: string }>(
      `SELECT j.id, j.country_codes[1] AS country FROM jobs j
        WHERE j.state = 0 AND cardinality(j.country_codes) > 0
          AND NOT EXISTS (SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id)
        ORDER BY j.posted_at DESC LIMIT 1`,
    );
    expect(rows).toHaveLength(1);
    const [{ id, country }] = rows;
    await db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const before = await counts();
    // The commit moves the data version; the index looks for a new one once a second. Asked at once, the
    // request is admitted at the new version, which the index reaches for it.
    expect(await expireDue(db)).toBe(1);
    const res = await get(`${api}/v1/jobs/count?country=${country}&remote=false`, auth);
    const want = await db.write.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM jobs WHERE state = 0 AND $1 = ANY(country_codes) AND NOT remote',
      [country],
    );
    expect(JSON.parse(res.body).count).toBe(want.rows[0].n);
    const after = await counts();
    expect(after.declined, serviceErr).toBe(before.declined);
    expect(after.answered).toBe(before.answered + 1);
  });
  it('answers from the index right after an expiry promotes a copy, but for what the copy matches', async () => {
    const auth = { authorization: `Bearer ${key}` };
    // A live job with a copy that becomes live when it expires, and a country that copy is not in.
    const { rows } = await db.write.query<{ id: string; theirs: string[] }>(
      `SELECT j.id, d.country_codes AS theirs FROM jobs j JOIN jobs d ON d.duplicate_of = j.id
        WHERE j.state = 0 AND NOT d.gone AND (d.expires_at IS NULL OR d.expires_at > now() + interval '1 hour')
          AND cardinality(d.country_codes) > 0
        ORDER BY j.posted_at DESC LIMIT 1`,
    );
    expect(rows).toHaveLength(1);
    const [{ id, theirs }] = rows;
    const other = await db.write.query<{ c: string }>(
      `SELECT c FROM jobs, unnest(country_codes) c WHERE state = 0 AND NOT c = ANY($1) GROUP BY c
        ORDER BY count(*) DESC LIMIT 1`,
      [theirs],
    );
    const elsewhere = other.rows[0].c;
    await db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await expireDue(db)).toBe(1);
    const count = async (country: string) => {
      const res = await get(`${api}/v1/jobs/count?country=${country}&remote=false`, auth);
      const want = await db.write.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM jobs WHERE state = 0 AND $1 = ANY(country_codes) AND NOT remote',
        [country],
      );
      expect(JSON.parse(res.body).count, country).toBe(want.rows[0].n);
    };
    // Elsewhere than the copy: the index, carried over the expiry at once (its merge takes seconds).
    let before = await counts();
    await count(elsewhere);
    let after = await counts();
    expect(after.declined, serviceErr).toBe(before.declined);
    expect(after.answered).toBe(before.answered + 1);
    // Where the copy is, until the merge: PostgreSQL's count, with the copy in it.
    before = after;
    await count(theirs[0]);
    after = await counts();
    expect(after.answered + after.declined).toBe(before.answered + before.declined + 1);
  });
});
