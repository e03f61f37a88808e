// Several hosts: two service instances (src/main.ts, two workers each, as two hosts behind a load
// balancer) on one primary, the run's replica when there is one (TEST_READ_URL_BASE) and Redis when
// REDIS_URL is set (else the PostgreSQL limiter), with a client spreading requests over both.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/db/keys.ts';
import { monthOf } from '../../src/db/usage.ts';
import { redisKeys } from '../../src/limiter/limiter.ts';
import { ingestFile } from '../../src/ingest/jsonl.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { SAMPLE } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { posting } from '../lifecycle/helpers.ts';
import { SERVICE_ENTRY } from '../helpers/service-entry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.REDIS_URL || undefined;

interface Host {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  /** The request log (pino JSON lines on stdout). */
  log: () => Record<string, unknown>[];
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startHost(db: TestDb): Promise<Host> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: db.url,
    DATABASE_READ_URL: db.replicaUrl,
    REDIS_URL,
    PORT: String(port),
    // Two workers: a host's processes share state exactly as hosts do, so both paths are exercised.
    WORKERS: '2',
    // Three processes per host, two pools each: keep the primary's connections few.
    POOL_MAX: '3',
    DEMO_DATA: 'false',
    // The client is one account sending many collapse requests at once: this test is about totals, not
    // about the expensive-work gate (test/http/expensive.test.ts).
    EXPENSIVE_PER_PROCESS: '100',
    EXPENSIVE_PER_ACCOUNT: '100',
    // Trace: the request log tells which requests a host read and what it answered.
    LOG_LEVEL: 'trace',
  };
  const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: ROOT, env });
  let err = '';
  child.stderr.on('data', (c) => {
    err += String(c);
  });
  let out = '';
  child.stdout.on('data', (c) => {
    out += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${err}`)), 90_000);
    child.stderr.on('data', () => {
      if (/listening on .*\(2 workers\)/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${err}`));
    });
  });
  const log = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, port, stderr: () => err, log, exited };
}

interface Answer {
  status: number;
  body: string;
}

/** One request on a connection of its own; rejects with the socket's error code. */
function request(port: number, url: string, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: url, agent: false, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** `n` requests, `inFlight` at a time, alternating between the hosts. */
async function spread(hosts: Host[], n: number, url: (i: number) => string, key: string, inFlight = 8) {
  const out: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        const i = next++;
        out.push(await request(hosts[i % hosts.length].port, url(i), key));
      }
    }),
  );
  return out;
}

let db: TestDb;
let hosts: Host[] = [];
let accountSeq = 0;

/** An account with its own limits and a key; its id is unique to this run so that Redis holds no earlier counts. */
async function account(rateLimit: number, quota: number): Promise<string> {
  const { rows } = await db.write.query<{ id: number }>(
    'INSERT INTO accounts (id, name, rate_limit, monthly_quota) VALUES ($1, $2, $3, $4) RETURNING id::int',
    [
      1_000_000_000 + Math.floor(Math.random() * 1_000_000_000) + accountSeq,
      `hosts${accountSeq++}`,
      rateLimit,
      quota,
    ],
  );
  const key = await createKey(db.write, rows[0].id, db.config.KEY_PREFIX);
  if (REDIS_URL) {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const k = redisKeys('jps:rl', rows[0].id, key.id, monthOf(Date.now()));
    await redis.del(k.account, k.key);
    await redis.quit();
  }
  return key.key;
}

beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
  await ingestFile(db, SAMPLE);
  await runRefresh(db);
  await db.synced();
  hosts = await Promise.all([startHost(db), startHost(db)]);
});
afterAll(async () => {
  for (const h of hosts) {
    if (h.child.exitCode === null) h.child.kill('SIGTERM');
    await h.exited;
  }
  await db?.drop();
});

const store = REDIS_URL ? 'Redis' : 'PostgreSQL';
const reads = process.env.TEST_READ_URL_BASE ? 'a replica' : 'the primary';

describe(`two hosts (limiter on ${store}, reads on ${reads})`, () => {
  it("admits exactly the account's per-minute limit across both hosts", async () => {
    const key = await account(40, 1_000_000);
    const answers = await spread(hosts, 100, () => '/v1/jobs/count', key);
    const by = (s: number) => answers.filter((a) => a.status === s);
    expect(by(200)).toHaveLength(40);
    expect(by(429)).toHaveLength(60);
    for (const a of by(429)) expect(JSON.parse(a.body).error).toBe('rate limit exceeded');
  });

  it('adds the monthly quota up across both hosts', async () => {
    const key = await account(10_000, 30);
    const answers = await spread(hosts, 50, () => '/v1/jobs/count', key);
    const by = (s: number) => answers.filter((a) => a.status === s);
    expect(by(200)).toHaveLength(30);
    expect(by(429)).toHaveLength(20);
    for (const a of by(429)) expect(JSON.parse(a.body).error).not.toBe('rate limit exceeded');
  });

  it('serves the same totals on both hosts after each load and expiry', async () => {
    const key = await account(10_000, 1_000_000);
    const filters = ['country=US', 'title=engineer', 'remote=true', 'country=US&collapse=true', 'country=DE'];
    const direct = async (qs: string) => {
      const answers = await spread(hosts, 8, () => `/v1/jobs?${qs}&limit=1`, key);
      for (const a of answers) expect(a.status, a.body).toBe(200);
      return answers.map((a) => JSON.parse(a.body).total as number);
    };
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const round = async (r: number) => {
      const totals = await Promise.all(filters.map(direct));
      for (const [i, t] of totals.entries())
        expect(new Set(t), `${filters[i]} in round ${r}`).toHaveLength(1);
      return totals.map((t) => t[0]);
    };
    let before = await round(0);
    for (let r = 1; r <= 3; r++) {
      await ingestRecords(
        db,
        Array.from({ length: 3 }, (_, i) =>
          posting('lever', `h${r}-${i}`, {
            title: `Platform Engineer ${r}-${i}`,
            location: { raw: ['Austin, Texas, United States'] },
            expires_at: later,
          }),
        ),
      );
      if (r === 3) {
        await db.write.query(
          "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:h1-0'",
        );
        expect(await expireDue(db)).toBe(1);
      }
      await db.synced();
      const now = await round(r);
      // Three new US engineering postings per load; the expiry takes one back.
      expect(now[0]).toBe(before[0] + (r === 3 ? 2 : 3));
      expect(now[1]).toBe(before[1] + (r === 3 ? 2 : 3));
      before = now;
    }
  });

  it('SIGTERM on one host fails none of the requests it had accepted while the other keeps serving', async () => {
    const key = await account(100_000, 1_000_000);
    const [a, b] = hosts;
    const url = '/v1/jobs?limit=50&country=US';
    const failures: string[] = [];
    let fromA = 0;
    let retried = 0;
    let termAt = 0;
    // The signal goes with the first answer of the stopping host: the others are in flight then.
    const stop = () => {
      if (termAt) return;
      termAt = Date.now();
      a.child.kill('SIGTERM');
    };
    // Requests to the host being stopped. A connection it never read (refused, or reset from its accept
    // queue) is retried on the other host, as a load balancer does; the request log below proves that
    // every request the stopping host did read was answered.
    // Many at once, so that some are still in flight when the first answer (and with it the signal)
    // reaches this process, however slowly it runs beside other work.
    const sent = 200;
    const toA = Array.from({ length: sent }, async () => {
      try {
        const r = await request(a.port, url, key);
        stop();
        if (r.status === 200) fromA++;
        else failures.push(`stopping host answered ${r.status}: ${r.body}`);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ECONNREFUSED' && code !== 'ECONNRESET') failures.push(`stopping host: ${code}`);
        retried++;
        const r = await request(b.port, url, key);
        if (r.status !== 200) failures.push(`other host answered ${r.status} to a retried request`);
      }
    });
    // Meanwhile the other host serves.
    const toB = spread([b], 60, () => url, key, 4);
    await Promise.all(toA);
    const other = await toB;
    expect(await a.exited).toBe(0);
    expect(failures).toEqual([]);
    expect(fromA + retried).toBe(sent);
    expect(other.filter((r) => r.status === 200)).toHaveLength(60);

    // Every request the stopping host read was answered 200, and each of those answers arrived.
    const ours = a
      .log()
      .filter((l) => (l.req as { url?: string } | undefined)?.url === url || l.msg === 'request completed');
    const id = (l: Record<string, unknown>) => `${l.pid}/${l.reqId}`;
    const read = new Set(ours.filter((l) => l.msg === 'incoming request').map(id));
    const answered = ours.filter((l) => l.msg === 'request completed' && read.has(id(l)));
    expect(answered.map(id).sort()).toEqual([...read].sort());
    for (const l of answered) expect((l.res as { statusCode: number }).statusCode).toBe(200);
    expect(answered).toHaveLength(fromA);
    // The stop came while requests were in flight: some were answered after the signal.
    const afterTerm = answered.filter((l) => (l.time as number) > termAt).length;
    expect(afterTerm).toBeGreaterThan(0);
    // And the other host keeps serving once the first is gone.
    expect((await request(b.port, url, key)).status).toBe(200);
  });
});
