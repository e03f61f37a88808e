// The feed drain: one client pages /v1/jobs/feed from the start to `next_cursor: null`, parsing every
// page. Two clients: one keep-alive connection (node:http, as curl, Python's requests or Go's client
// page a feed: the connection, and so the service process, stays the same), and Node's fetch, which
// alternates two connections for back-to-back requests and so lands on both HTTP workers in turn.
import http from 'node:http';
import { finished, spawnTs } from './proc.ts';

export interface Drain {
  client: 'one connection' | 'fetch';
  rows: number;
  pages: number;
  seconds: number;
  rows_per_s: number;
}

type Get = (url: string) => Promise<{ status: number; text: string }>;

function oneConnection(key: string): { get: Get; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get: Get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

function withFetch(key: string): { get: Get; close(): void } {
  const get: Get = async (url) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, text: await res.text() };
  };
  return { get, close: () => {} };
}

export async function drainFeed(base: string, key: string, client: Drain['client']): Promise<Drain> {
  const c = client === 'fetch' ? withFetch(key) : oneConnection(key);
  const first = '/v1/jobs/feed?since=3650d&limit=1000';
  let rows = 0;
  let pages = 0;
  let next: string | null = first;
  const t = performance.now();
  try {
    while (next) {
      const res = await c.get(base + next);
      if (res.status !== 200) throw new Error(`feed drain: ${res.status} ${res.text.slice(0, 500)}`);
      const page = JSON.parse(res.text) as { count: number; next_cursor: string | null };
      rows += page.count;
      pages++;
      next = page.next_cursor ? `${first}&cursor=${encodeURIComponent(page.next_cursor)}` : null;
    }
  } finally {
    c.close();
  }
  const seconds = (performance.now() - t) / 1000;
  return {
    client,
    rows,
    pages,
    seconds: Math.round(seconds * 10) / 10,
    rows_per_s: Math.round(rows / seconds),
  };
}

/**
 * A drain by a client in a process of its own, as a mirror is: started fresh, not inside the bench's
 * process with the heap of every run before it (the same drain there ran at 22,000-27,000 rows/s
 * against 29,700-31,800 from a process of its own, bench/README.md).
 */
export async function drainInChild(base: string, key: string, client: Drain['client']): Promise<Drain> {
  const { code, out, err } = await finished(spawnTs('bench/lib/drain-child.ts', [base, key, client], {}));
  if (code !== 0) throw new Error(`feed drain (${client}) exited with ${code}: ${err.slice(-2000)}`);
  return JSON.parse(out) as Drain;
}
