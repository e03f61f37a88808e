import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, HttpClient, retryAfterMs } from '../../src/ingest/crawl/http.ts';
import { fastHttp, startServer, type TestServer } from './crawl-helpers.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

describe('crawler HTTP client', () => {
  it('retries 5xx with exponential backoff, then succeeds', async () => {
    let n = 0;
    srv.set('GET', '/flaky', () => (++n < 3 ? { status: 503 } : { body: 'fine', etag: '"e1"' }));
    const waits: number[] = [];
    const http = new HttpClient(fastHttp(waits));
    expect(await http.request({ url: `${srv.root}/flaky` })).toEqual({
      status: 200,
      body: 'fine',
      validators: { etag: '"e1"', lastModified: undefined },
    });
    expect(waits).toEqual([10, 20]);
    expect(http.requests).toBe(3);
  });

  it('does not retry other 4xx, and fails on redirects without following them', async () => {
    srv.set('GET', '/gone', { status: 410 });
    srv.set('GET', '/moved', { status: 301, headers: { location: 'https://elsewhere.example/' } });
    const http = new HttpClient(fastHttp());
    await expect(http.request({ url: `${srv.root}/gone` })).rejects.toEqual(new FetchError('HTTP 410', 410));
    await expect(http.request({ url: `${srv.root}/moved` })).rejects.toThrow(
      'redirected (301) to https://elsewhere.example/',
    );
    expect(http.requests).toBe(2);
  });

  it('gives up at once when Retry-After is longer than allowed', async () => {
    srv.set('GET', '/slow-down', { status: 429, headers: { 'retry-after': '3600' } });
    const waits: number[] = [];
    const http = new HttpClient(fastHttp(waits));
    await expect(http.request({ url: `${srv.root}/slow-down` })).rejects.toThrow(
      'HTTP 429 with Retry-After 3600s, longer than allowed',
    );
    expect(waits).toEqual([]);
  });

  it('sends validators and reports 304; a 304 to an unconditional request is an error', async () => {
    srv.set('GET', '/cond', { body: 'x', etag: '"v9"', lastModified: 'Mon, 01 Jun 2026 10:00:00 GMT' });
    const http = new HttpClient(fastHttp());
    expect(await http.request({ url: `${srv.root}/cond`, validators: { etag: '"v9"' } })).toEqual({
      status: 304,
    });
    const last = srv.log.at(-1)!;
    expect(last.headers['if-none-match']).toBe('"v9"');
    srv.set('GET', '/always304', { status: 304 });
    await expect(http.request({ url: `${srv.root}/always304` })).rejects.toThrow(
      '304 Not Modified to an unconditional request',
    );
  });

  it('times out a slow answer and retries network failures', async () => {
    srv.set('GET', '/stall', { delay: 150, body: 'late' });
    const waits: number[] = [];
    const http = new HttpClient({ ...fastHttp(waits), timeoutMs: 40, retries: 1 });
    await expect(http.request({ url: `${srv.root}/stall` })).rejects.toThrow(
      'timed out after 40 ms (after 2 attempts)',
    );
    expect(waits).toEqual([10]);
    // A port that was just released: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    await expect(new HttpClient(fastHttp()).request({ url: `http://127.0.0.1:${port}/` })).rejects.toThrow(
      /network error: ECONNREFUSED \(after 3 attempts\)/,
    );
  });

  it('spaces requests to one host by the politeness delay', async () => {
    srv.set('GET', '/a', { body: 'a' });
    const slept: number[] = [];
    const wakes: number[] = [];
    const http = new HttpClient({
      ...fastHttp(),
      minHostDelayMs: 40,
      sleep: (ms) => {
        slept.push(ms);
        wakes.push(Date.now() + ms);
        return new Promise((r) => setTimeout(r, ms));
      },
    });
    // A request takes its slot as it is called: the first's lies between these two readings of the clock,
    // however busy the machine is.
    const started = Date.now();
    const first = http.request({ url: `${srv.root}/a` });
    const issued = Date.now();
    await Promise.all([first, http.request({ url: `${srv.root}/a` })]);
    // The first goes at once; the second waits out the rest of the first's 40 ms slot (the clock may
    // tick once between the client's reading and the sleep's).
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeLessThanOrEqual(40);
    expect(wakes[0]).toBeGreaterThanOrEqual(started + 40);
    expect(wakes[0]).toBeLessThanOrEqual(issued + 41);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-06-01T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Mon, 01 Jun 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 01 Jun 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
