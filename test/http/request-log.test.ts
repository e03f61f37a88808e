// What reaches the log: redacted, bounded URLs; per-request lines only at debug; a summary at info.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/redact.ts';
import { RequestLog } from '../../src/http/request-log.ts';

const KEY = `jps_${'0123456789abcdef'.repeat(3)}`;

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level }, stream) };
}

describe('redactUrl', () => {
  it.each([
    `/v1/jobs?api_key=${KEY}`,
    `/v1/jobs?api%5Fkey=${KEY}`,
    `/v1/jobs?%61pi_key=${KEY}`,
    `/v1/jobs?%61%70%69%5F%6B%65%79=${KEY}&title=x`,
    `/v1/jobs?title=x&api_key=${KEY}&api_key=${KEY}`,
    `/v1/jobs?api_key=${KEY.slice(0, 20)}`,
    `/v1/jobs/${KEY}`,
    `/v1/jobs?title=${KEY}`,
    `/v1/jobs?title=${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
    `/v1/jobs/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
  ])('%s keeps no part of the key', (url) => {
    const out = redactUrl(url);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toContain('0123456789abcdef0123');
    expect(out).not.toMatch(/%30%31%32%33/i);
  });

  it('keeps the rest of the URL readable and cuts long ones', () => {
    expect(redactUrl('/v1/jobs?title=java&api_key=k&limit=2')).toBe(
      '/v1/jobs?title=java&api_key=[REDACTED]&limit=2',
    );
    const long = redactUrl(`/v1/jobs?title=${'x'.repeat(5000)}`);
    expect(long.length).toBeLessThan(540);
    expect(long).toMatch(/…\(5015 chars\)$/);
  });
});

describe('RequestLog', () => {
  it('at info writes no line per request, one summary per interval', () => {
    const { lines, log } = capture('info');
    const rl = new RequestLog(log, 60_000);
    for (let i = 0; i < 1000; i++)
      rl.record('GET', `/v1/jobs?api_key=${KEY}&i=${i}`, i % 10 ? 200 : 400, i % 100);
    expect(lines).toEqual([]);
    rl.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'requests', requests: 1000, statuses: { 200: 900, 400: 100 } });
    expect(lines[0].p50_ms).toBe(50);
    expect(JSON.stringify(lines)).not.toContain('/v1/jobs');
  });

  it('at debug writes every request with its redacted URL', () => {
    const { lines, log } = capture('debug');
    const rl = new RequestLog(log, 60_000);
    rl.record('GET', `/v1/jobs?api%5Fkey=${KEY}`, 200, 3.21);
    rl.close();
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'GET',
      url: '/v1/jobs?api%5Fkey=[REDACTED]',
      status: 200,
    });
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('summaries carry the change of the connection counters since the previous one', () => {
    const { lines, log } = capture('info');
    const counters = { stalled_dropped: 0, connections_refused: 0 };
    const rl = new RequestLog(log, 60_000, () => counters);
    rl.record('GET', '/v1/jobs', 200, 1);
    counters.stalled_dropped = 3;
    rl.flush();
    counters.stalled_dropped = 5;
    counters.connections_refused = 2;
    rl.flush();
    rl.flush();
    rl.close();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ msg: 'requests', requests: 1, stalled_dropped: 3 });
    expect(lines[1]).toMatchObject({ msg: 'connections', stalled_dropped: 2, connections_refused: 2 });
  });

  it('repeated warnings are logged once per interval, with the number suppressed', () => {
    const { lines, log } = capture('info');
    const rl = new RequestLog(log, 50);
    for (let i = 0; i < 100; i++) rl.warnOnce('db', {}, 'database unavailable');
    expect(lines).toHaveLength(1);
    rl.close();
  });
});
