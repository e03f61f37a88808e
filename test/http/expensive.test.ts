// The bound on expensive work: judged by cost (what the match index or a kept page answers is not
// expensive), a fair queue per account with a deadline, and 429/503 with Retry-After past it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, ensureAccount } from '../../src/db/keys.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { isExpensive, probeIndex } from '../../src/http/expensive.ts';
import { ExpensiveGate } from '../../src/http/expensive-gate.ts';
import { ApiError } from '../../src/errors.ts';
import { buildIndex, type MatchSource, MatchService, type MatchStatus } from '../../src/search/match.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let other: string;
let locker: pg.Client;
let match: MatchService;
/** An index holding the two most common description words only (a small dataset's every word is common). */
let few: MatchService;
/** The description lexemes of the data, most common first. */
let words: string[];
beforeAll(async () => {
  t = await createTestApp({
    // Held requests must outlast the test's own waiting on a loaded machine: no deadline is reached here.
    env: {
      EXPENSIVE_PER_PROCESS: '2',
      EXPENSIVE_PER_ACCOUNT: '2',
      EXPENSIVE_QUEUE_PER_ACCOUNT: '3',
      EXPENSIVE_WAIT_MS: '60000',
      STATEMENT_TIMEOUT_MS: '60000',
    },
  });
  const account = await ensureAccount(t.db.write, 'other', 600, 1_000_000);
  other = (await createKey(t.db.write, account.id, 'jps_')).key;
  locker = new pg.Client({ connectionString: t.db.url });
  await locker.connect();
  match = new MatchService(t.db.read);
  await match.refresh();
  const { rows } = await t.db.read.query<{ word: string }>(
    `SELECT word FROM ts_stat('SELECT text_tsv FROM job_texts') ORDER BY ndoc DESC, word LIMIT 4`,
  );
  words = rows.map((r) => r.word);
  few = new MatchService(
    t.db.read,
    () => {},
    undefined,
    async () => ({
      index: await buildIndex(t.db.read, words.slice(0, 2)),
    }),
  );
  await few.refresh();
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

/** Holds every statement that reads the jobs (or their description vectors) until the returned function is called. */
async function lockJobs(): Promise<() => Promise<void>> {
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE jobs, job_texts IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await locker.query('ROLLBACK');
  };
}

/** Waits until `done` holds (polling), failing after a generous while. */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const blockedOnLock = async () => {
  // Activity statistics are a snapshot per transaction: take a fresh one.
  await locker.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await locker.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0].n as number;
};

// inject() is lazy until then() is called: `start` sends the request now.
const start = (url: string, key?: string) =>
  t.get(url, key ? { authorization: `Bearer ${key}` } : undefined).then((r) => r);

describe('what is expensive, by kind (no index, nothing kept)', () => {
  it.each([
    ['/v1/jobs', { collapse: 'true' }, true],
    ['/v1/jobs/count', { collapse: 'true' }, true],
    ['/v1/jobs', { offset: 1000 }, true],
    ['/v1/jobs', { offset: 999 }, false],
    ['/v1/jobs', { description: "'java'" }, true],
    ['/v1/jobs/count', { description_advanced: "'java'" }, true],
    ['/v1/jobs', { title_advanced: "'manag':*" }, true],
    ['/v1/jobs', { title_advanced: "'manag'" }, false],
    ['/v1/jobs', { title: "'java'", country: ['US'] }, false],
    ['/v1/jobs/feed', { limit: 1000 }, false],
    ['/v1/jobs/feed', { limit: 200, description_format: 'html' }, false],
    ['/v1/jobs/feed', { limit: 201, description_format: 'html' }, true],
    ['/v1/jobs/modified', { limit: 1000, description_format: 'text' }, true],
    ['/v1/jobs/expired', { limit: 5000 }, false],
  ] as const)('%s %j → %s', (path, params, expected) => {
    expect(isExpensive(path, params)).toBe(expected);
  });
});

describe('what is expensive, by cost (with the match index)', () => {
  it.each([
    ['/v1/jobs', { collapse: 'true', title: "'engineer'" }, false],
    ['/v1/jobs/count', { collapse: 'true' }, false],
    ['/v1/jobs', { offset: 5000 }, false],
    ['/v1/jobs', { offset: 5000, country: ['US'], cursor: 'x' }, false],
    ['/v1/jobs', { title_advanced: "'manag':*" }, false],
    // Filters the index does not hold are PostgreSQL's, and stay expensive.
    ['/v1/jobs', { description: "'java'" }, true],
    ['/v1/jobs', { collapse: 'true', description_advanced: "'java'" }, true],
    ['/v1/jobs/count', { collapse: 'true', description: "'java'" }, true],
    ['/v1/jobs/feed', { limit: 201, description_format: 'html' }, true],
    // Facets the index counts read no row (of jobs or of groups); a filter it does not hold is PostgreSQL's.
    ['/v1/jobs/facets', { facets: ['country', 'skills'], remote: true }, false],
    ['/v1/jobs/facets', { facets: ['country', 'city'] }, false],
    ['/v1/jobs/facets', { facets: ['country'], collapse: 'true' }, false],
    ['/v1/jobs/facets', { facets: ['country'], organization: 'acme' }, false],
    ['/v1/jobs/facets', { facets: ['country'], created_gte: '2026-01-01T00:00:00+00:00' }, false],
    ['/v1/jobs/facets', { facets: ['country'], exclude_source: ['lever'] }, false],
    ['/v1/jobs/facets', { facets: ['country'], collapse: 'true', source: ['lever_co'] }, false],
    [
      '/v1/jobs/facets',
      { facets: ['country'], collapse: 'true', description: "'senior' <-> 'engineer'" },
      true,
    ],
    ['/v1/jobs/facets', { facets: ['country'], description: "'java'" }, true],
    // So is the salary distribution, which the index computes from its kept bounds and currencies.
    ['/v1/jobs/salary', { country: ['US'] }, false],
    ['/v1/jobs/salary', { country: ['US'], salary_buckets: [50_000] }, false],
    ['/v1/jobs/salary', { description: "'java'" }, true],
    // And trends, which the index counts from its live and gone rows.
    ['/v1/jobs/trends', { country: ['US'], interval: 'week', since: '2026-01-01' }, false],
    ['/v1/jobs/trends', { description: "'java'" }, true],
  ] as const)('%s %j → %s', (path, params, expected) => {
    expect(isExpensive(path, params, { match })).toBe(expected);
  });
});

describe('description searches (with the match index)', () => {
  it('are not expensive when the index holds their words, as bitmaps or lists, and are with a phrase', async () => {
    const held = words;
    // Two words as bitmaps, every other one as a list of its rows.
    const match = few;
    const cases = [
      [{ description: `'${held[0]}'` }, true],
      [{ description_advanced: `'${held[0]}' & !'${held[1]}'`, country: ['US'] }, true],
      [{ description: `'${held[0]}' & '${held[2]}'` }, true],
      [{ description_advanced: `'${held[3].slice(0, 3)}':* | 'zzqxv'` }, true],
      // No positions are kept of descriptions: a phrase is PostgreSQL's.
      [{ description: `'${held[0]}' <-> '${held[1]}'` }, false],
      [{ country: ['US'] }, false],
    ] as const;
    for (const [params, expected] of cases) {
      const probed = await probeIndex('/v1/jobs', params, { match });
      expect(probed, JSON.stringify(params)).toBe(expected);
      if (!('description' in params) && !('description_advanced' in params)) continue;
      expect(isExpensive('/v1/jobs', params, { match, probed })).toBe(!expected);
      const facets = { ...params, facets: ['country'] };
      expect(isExpensive('/v1/jobs/facets', facets, { match, probed })).toBe(!expected);
    }
  });
});

describe('an index holding rows apart (copies an expiry promoted, until a build merges them)', () => {
  it('is asked about every search before it is costed: what it declines is expensive, the rest is not', async () => {
    const version = 7;
    // The index declines what a row held apart matches (here: whatever is not filtered on FR).
    let asked = 0;
    const holding = (apart?: number): MatchSource & { status: MatchStatus } => ({
      status: { version, apart, builds: 1, carried: 1 },
      ask: async (q) => {
        asked++;
        return (q.filters.country as string[] | undefined)?.[0] === 'FR' ? { total: 0, ids: [] } : undefined;
      },
    });
    const apart = holding(2);
    const declined = { collapse: 'true', country: ['US'] };
    const answered = { collapse: 'true', country: ['FR'] };
    for (const [params, answers] of [
      [declined, false],
      [answered, true],
    ] as const) {
      const probed = await probeIndex('/v1/jobs', params, { match: apart, version });
      expect(probed).toBe(answers);
      expect(isExpensive('/v1/jobs', params, { match: apart, version, probed })).toBe(!answers);
      expect(
        isExpensive('/v1/jobs/facets', { ...params, facets: ['country'] }, { match: apart, version, probed }),
      ).toBe(!answers);
    }
    // Nor is it asked where its answer decides nothing: a cheap search, a feed page.
    asked = 0;
    expect(await probeIndex('/v1/jobs', { country: ['FR'] }, { match: apart, version })).toBe(false);
    expect(await probeIndex('/v1/jobs/feed', { limit: 200 }, { match: apart, version })).toBe(false);
    expect(asked).toBe(0);
    // Holding nothing apart, the index is not asked: it answers what it holds.
    const whole = holding(undefined);
    expect(await probeIndex('/v1/jobs', declined, { match: whole, version })).toBe(false);
    expect(isExpensive('/v1/jobs', declined, { match: whole, version })).toBe(false);
  });
});

describe('an index that cannot answer yet', () => {
  it('before its first build, and at another data version than the request read, the gate holds', () => {
    const params = { collapse: 'true', offset: 5000 };
    const unbuilt = new MatchService(t.db.read);
    expect(isExpensive('/v1/jobs', params, { match: unbuilt })).toBe(true);
    const at = match.status.version!;
    expect(isExpensive('/v1/jobs', params, { match, version: at })).toBe(false);
    expect(isExpensive('/v1/jobs', params, { match, version: at + 1 })).toBe(true);
  });
});

describe('the gate (in itself)', () => {
  const limits = { perProcess: 1, perKey: 1, queuePerKey: 10, waitMs: 60_000, kinds: 'heavy ones' };

  it('a freed slot goes to the waiting accounts in turn, each account in arrival order', async () => {
    const gate = new ExpensiveGate(limits);
    const order: string[] = [];
    let release = await gate.enter(1);
    const waiting = [
      ...['a1', 'a2', 'a3'].map((name) => ({ name, p: gate.enter(1) })),
      ...['b1', 'b2'].map((name) => ({ name, p: gate.enter(2) })),
    ];
    for (const w of waiting) void w.p.then(() => order.push(w.name));
    expect(gate.stats).toEqual({ running: 1, waiting: 5 });
    for (let i = 0; i < waiting.length; i++) {
      release();
      await new Promise((r) => setImmediate(r));
      expect(order).toHaveLength(i + 1);
      release = await waiting.find((w) => w.name === order[i])!.p;
    }
    release();
    // Round-robin: the flooding account's three are interleaved with the other's two.
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
    expect(gate.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('a slot goes first to the waiting account running fewest', async () => {
    const gate = new ExpensiveGate({ ...limits, perProcess: 3, perKey: 2 });
    const a = [await gate.enter(1), await gate.enter(1)];
    const b = await gate.enter(2);
    const order: number[] = [];
    void gate.enter(1).then(() => order.push(1));
    void gate.enter(2).then(() => order.push(2));
    a[0](); // account 1 now runs one, account 2 one; account 1 waited first
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([1]);
    b(); // account 2 runs none: its turn
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([1, 2]);
  });

  it('past its account’s queue: 429 at once; past the wait: 429 when its own account held it, else 503', async () => {
    const gate = new ExpensiveGate({ ...limits, queuePerKey: 1, waitMs: 50 });
    const release = await gate.enter(1);
    const mineWaiting = gate.enter(1).catch((e: ApiError) => e);
    const full = await gate.enter(1).catch((e: ApiError) => e);
    expect(full).toBeInstanceOf(ApiError);
    expect((full as ApiError).status).toBe(429);
    expect((full as ApiError).headers['retry-after']).toBe('1');
    const theirs = await gate.enter(2).catch((e: ApiError) => e);
    expect((theirs as ApiError).status).toBe(503);
    expect((theirs as ApiError).headers['retry-after']).toBe('1');
    expect(((await mineWaiting) as ApiError).status).toBe(429);
    expect(gate.stats).toEqual({ running: 1, waiting: 0 });
    release();
    release(); // twice: counted once
    expect(gate.stats).toEqual({ running: 0, waiting: 0 });
    (await gate.enter(2))();
  });
});

describe('the gate over processes (as the primary holds it for its workers)', () => {
  const limits = { perProcess: 1, perKey: 2, queuePerKey: 10, waitMs: 60_000, kinds: 'heavy ones' };

  it('bounds each process and each account across processes; a slot goes where its process has room', async () => {
    const gate = new ExpensiveGate(limits);
    const a1 = await gate.enter(1, 1);
    const b2 = await gate.enter(2, 2);
    const order: string[] = [];
    // Process 1 is full: account 1's next request there waits; account 2's in process 1 too.
    const a = gate.enter(1, 1).then((r) => {
      order.push('a in 1');
      return r;
    });
    void gate.enter(2, 1).then(() => order.push('b in 1'));
    expect(gate.stats).toEqual({ running: 2, waiting: 2 });
    b2(); // process 2 frees: neither waiter is of process 2
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    a1(); // process 1 frees: its oldest waiter, account 1's, whose turn it is
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a in 1']);
    (await a)();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a in 1', 'b in 1']);
  });

  it('an account over its bound waits even with room in another process', async () => {
    const gate = new ExpensiveGate({ ...limits, perProcess: 4, perKey: 1 });
    const held = await gate.enter(1, 1);
    let ran = false;
    const next = gate.enter(1, 2).then((r) => {
      ran = true;
      return r;
    });
    await new Promise((r) => setImmediate(r));
    expect(ran).toBe(false);
    (await gate.enter(2, 2))(); // another account runs at once
    held();
    (await next)();
    expect(gate.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('the waiting requests of a process that has gone are dropped, and their turn passes on', async () => {
    const gate = new ExpensiveGate({ ...limits, perKey: 1 });
    const held = await gate.enter(1, 1);
    let dead = false;
    void gate.enter(1, 2).then(() => {
      dead = true;
    });
    const alive = gate.enter(1, 3);
    gate.forget(2);
    expect(gate.stats).toEqual({ running: 1, waiting: 1 });
    held();
    (await alive)();
    expect(dead).toBe(false);
    expect(gate.stats).toEqual({ running: 0, waiting: 0 });
  });
});

describe('the gate in the service', () => {
  it('the light account is answered while the flooding one waits its turn or is refused; kept answers take no slot', async () => {
    // Kept before the flood: a page and a total (cached per data version).
    expect((await t.get('/v1/jobs?description=java')).statusCode).toBe(200);
    expect((await t.get('/v1/jobs/count?collapse=true')).statusCode).toBe(200);
    const unlock = await lockJobs();
    const flood: Promise<{ statusCode: number }>[] = [];
    const light: Promise<{ statusCode: number }>[] = [];
    try {
      // Two run (held by the lock), three wait: the account's queue is full.
      for (let i = 0; i < 5; i++) flood.push(start(`/v1/jobs?description=python&offset=${i}`));
      await until('two held and three waiting', async () => {
        const s = t.app.expensive.stats;
        return s.running === 2 && s.waiting === 3 && (await blockedOnLock()) === 2;
      });
      const refused = await t.get('/v1/jobs?collapse=true&offset=1');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({
        error: 'too many expensive requests',
        hint: expect.any(String),
      });
      // The other account waits for a slot rather than being refused.
      for (let i = 0; i < 2; i++) light.push(start(`/v1/jobs?collapse=true&offset=${i + 2}`, other));
      await until('the light account waiting', () => t.app.expensive.stats.waiting === 5);
      // A page or a total already kept is answered at once, the gate full or not.
      expect((await t.get('/v1/jobs?description=java')).statusCode).toBe(200);
      expect((await t.get('/v1/jobs/count?collapse=true')).statusCode).toBe(200);
    } finally {
      await unlock();
    }
    for (const r of await Promise.all(light)) expect(r.statusCode).toBe(200);
    for (const r of await Promise.all(flood)) expect(r.statusCode).toBe(200);
    expect(t.app.expensive.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('with the match index, collapse, prefix terms and description words take no slot; phrases do', async () => {
    const app: App = await buildApp({
      ctx: {
        db: t.db.forService(),
        config: { ...t.db.config, EXPENSIVE_PER_PROCESS: 1, EXPENSIVE_QUEUE_PER_ACCOUNT: 0 },
        cursorSecret: 'test-secret',
        version: '1.0.0',
        fullTextSearch: true,
        match: few,
      },
      logger: false,
    });
    const get = (url: string) =>
      app.fastify.inject({ url, headers: { authorization: `Bearer ${t.key}` } }).then((r) => r);
    const unlock = await lockJobs();
    let held: Promise<{ statusCode: number }> | undefined;
    try {
      // A phrase (the index keeps no positions of words): PostgreSQL's, in a slot.
      held = get(`/v1/jobs/count?description=${encodeURIComponent(`"${words[2]} ${words[3]}"`)}`);
      await until('one held', async () => app.expensive.stats.running === 1 && (await blockedOnLock()) === 1);
      const phrase = `"${words[3]} ${words[2]}"`;
      expect((await get(`/v1/jobs/count?description=${encodeURIComponent(phrase)}`)).statusCode).toBe(429);
      // Words, as bitmaps or as lists of rows, and words of no description: counted in the index.
      for (const description of [words[0], `${words[0]} -${words[1]}`, words[3], 'zzqxv'])
        expect((await get(`/v1/jobs/count?description=${encodeURIComponent(description)}`)).statusCode).toBe(
          200,
        );
      // Counts from the index read no row of the locked table.
      const groups = await get('/v1/jobs/count?collapse=true&country=US');
      expect(groups.statusCode).toBe(200);
      expect(groups.json()).toEqual({ count: expect.any(Number) });
      expect((await get('/v1/jobs/count?collapse=true&title_advanced=engin:*')).statusCode).toBe(200);
    } finally {
      await unlock();
      expect((await held)?.statusCode).toBe(200);
      await app.close();
    }
  });

  it('slots are given back when the request fails', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.get('/v1/jobs?collapse=true&cursor=abc')).statusCode).toBe(400);
    }
    expect((await t.get('/v1/jobs?collapse=true&offset=7')).statusCode).toBe(200);
    expect(t.app.expensive.stats).toEqual({ running: 0, waiting: 0 });
  });
});
