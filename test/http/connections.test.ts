// Slow and never-reading clients: a response nobody reads is dropped, stalled buffers are bounded, and
// one address cannot hold more than its share of connections.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionGuard, guardConnections } from '../../src/http/connections.ts';
import { parseRaw } from '../helpers/raw-http.ts';

const BIG = Buffer.alloc(48 * 1024 * 1024, 'x'); // larger than loopback socket buffers

let server: http.Server | undefined;
let guard: ConnectionGuard | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  guard?.stop();
  await new Promise((r) => server?.close(r));
});

async function start(limits: Parameters<typeof guardConnections>[1]): Promise<number> {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(BIG);
  });
  guard = guardConnections(server, limits);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** Sends a request and never reads the answer. */
function neverRead(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.pause();
      s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      resolve(s);
    });
    s.on('error', () => {});
    sockets.push(s);
  });
}

const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

describe('connection guard', () => {
  it('drops a response the client stops reading once it has stalled for stallMs', async () => {
    const port = await start({ perAddress: 100, stallMs: 300, maxBufferedBytes: 1e12, sweepMs: 50 });
    const s = await neverRead(port);
    const closed = new Promise<void>((r) => s.on('close', () => r()));
    expect(await until(() => guard!.stats.dropped === 1, 5000)).toBe(true);
    s.resume();
    await closed;
  });

  it('drops stalled sockets at once, largest first, when their buffers pass the bound', async () => {
    const port = await start({
      perAddress: 100,
      stallMs: 60_000,
      maxBufferedBytes: 8 * 1024 * 1024,
      sweepMs: 50,
    });
    await Promise.all(Array.from({ length: 4 }, () => neverRead(port)));
    expect(await until(() => guard!.stats.dropped >= 4, 5000)).toBe(true);
  });

  it('a client that reads slowly but keeps reading is not dropped', async () => {
    // A stall 500 times the client's pauses: on a machine whose cores are busy elsewhere, the test process
    // itself can stop for a second, which is not the client stalling.
    const port = await start({ perAddress: 100, stallMs: 5000, maxBufferedBytes: 1e12, sweepMs: 50 });
    const got = await new Promise<number>((resolve) => {
      let n = 0;
      const s = net.connect(port, '127.0.0.1', () =>
        s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      sockets.push(s);
      s.on('data', (c) => {
        n += c.length;
        // Past the kernel's buffers on both sides (several MB on loopback), the server has made progress.
        if (n >= 16 * 1024 * 1024) return resolve(n);
        // Pause 10 ms after each chunk: slow, but the server's queue keeps shrinking.
        s.pause();
        setTimeout(() => s.resume(), 10).unref();
      });
      s.on('close', () => resolve(n));
      s.on('error', () => {});
      setTimeout(() => resolve(n), 20_000).unref();
    });
    expect(guard!.stats.dropped).toBe(0);
    expect(got).toBeGreaterThanOrEqual(16 * 1024 * 1024);
  });

  it('refuses connections past the per-address cap with a JSON 503 and Retry-After', async () => {
    const port = await start({ perAddress: 3, stallMs: 60_000, maxBufferedBytes: 1e12 });
    for (let i = 0; i < 3; i++) {
      const s = net.connect(port, '127.0.0.1');
      s.on('error', () => {});
      sockets.push(s);
      await new Promise((r) => s.once('connect', r));
    }
    const raw = await new Promise<string>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      sockets.push(s);
      let text = '';
      s.on('data', (c) => (text += c));
      s.on('close', () => resolve(text));
      s.on('error', () => resolve(text));
    });
    const r = parseRaw(raw);
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body).error).toBe('service unavailable');
    expect(guard!.stats.refused).toBe(1);
    // Closing one frees a place.
    sockets[0].destroy();
    await new Promise((r) => setTimeout(r, 100));
    const ok = await new Promise<number>((resolve) => {
      http.get({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => {
        res.destroy();
        resolve(res.statusCode ?? 0);
      });
    });
    expect(ok).toBe(200);
  });
});
